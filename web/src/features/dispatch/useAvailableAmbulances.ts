import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { queries } from '../../api/queries';
import { isAvailable } from '../../domain/fleetRules';
import { useErrorToast } from '../shared/useErrorToast';

/** Ambulances free to dispatch, from the live ambulances query: a taken one disappears at once. */
export function useAvailableAmbulances() {
  const query = useQuery(queries.ambulances());
  useErrorToast(query.error, query.errorUpdatedAt, (e) =>
    e instanceof ApiError ? 'Failed to fetch ambulances' : 'Failed to fetch available ambulances');
  return {
    loading: query.isPending,
    available: (query.data ?? []).filter(isAvailable),
  };
}
