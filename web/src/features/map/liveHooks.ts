import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { DEFAULT_STALE_AFTER_S, type StaleThresholds } from '../../api/contract';

/** The average urban speed ETAs are estimated with (ETA_SPEED_KMH, from GET /api/config); undefined until loaded. */
export function useEtaSpeedKmh(): number | undefined {
  const { data } = useQuery(queries.config());
  const speed = data?.etaSpeedKmh;
  return typeof speed === 'number' && speed > 0 ? speed : undefined;
}

/** Seconds to stale per position source (GET /api/config's stale_after_s); the contract's defaults until it loads. */
export function useStaleThresholds(): StaleThresholds {
  const { data } = useQuery(queries.config());
  return data?.stale_after_s ?? DEFAULT_STALE_AFTER_S;
}
