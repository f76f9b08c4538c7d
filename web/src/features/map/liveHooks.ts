import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';

/** The average urban speed ETAs are estimated with (ETA_SPEED_KMH, from GET /api/config); undefined until loaded. */
export function useEtaSpeedKmh(): number | undefined {
  const { data } = useQuery(queries.config());
  const speed = data?.etaSpeedKmh;
  return typeof speed === 'number' && speed > 0 ? speed : undefined;
}
