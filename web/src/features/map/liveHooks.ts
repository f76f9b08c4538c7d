import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { DEFAULT_STALE_AFTER_S, type EtaModelParams, type StaleThresholds } from '../../api/contract';

/** The server's arrival model (GET /api/config's eta_model: road factor and speed); undefined until loaded. */
export function useEtaModel(): EtaModelParams | undefined {
  const { data } = useQuery(queries.config());
  return data?.eta_model;
}

/** Seconds to stale per position source (GET /api/config's stale_after_s); the contract's defaults until it loads. */
export function useStaleThresholds(): StaleThresholds {
  const { data } = useQuery(queries.config());
  return data?.stale_after_s ?? DEFAULT_STALE_AFTER_S;
}
