import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { queries } from '../../api/queries';
import { isAvailable } from '../../domain/fleetRules';
import { useErrorToast } from '../shared/useErrorToast';
import { useLoadState } from '../shared/useLoadState';

/** SPEC §8's toast for a failed ambulance list: a non-OK answer, or an exception. */
export const ambulancesFailText = (e: unknown) => (e instanceof ApiError ? 'Failed to fetch ambulances' : 'Failed to fetch available ambulances');

/**
 * Ambulances free to dispatch, from the live ambulances query: a taken one disappears at once.
 * Three states, never confused: `loading` (no answer yet), `failed` (no list, its load failed:
 * which ambulances are free is unknown, not none; it stays so through a Retry until one loads),
 * else the list. A list that loaded once and fails to refresh is still the list (the server
 * refuses an ambulance taken meanwhile).
 */
export function useAvailableAmbulances() {
  const query = useQuery(queries.ambulances());
  useErrorToast(query.error, query.errorUpdatedAt, ambulancesFailText);
  const load = useLoadState([{ query, failText: ambulancesFailText }]);
  return {
    loading: load.phase === 'loading',
    failed: load.phase === 'failed',
    /** The failure in SPEC's words, while `failed`. */
    failText: load.phase === 'failed' ? (load.failures[0] ?? 'Failed to fetch ambulances') : null,
    retry: load.retry,
    retrying: load.retrying,
    available: (query.data ?? []).filter(isAvailable),
  };
}
