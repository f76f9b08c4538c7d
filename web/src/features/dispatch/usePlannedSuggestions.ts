import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AmbulanceDto, DispatchPlan, LatLon, Priority } from '../../api/contract';
import { queries } from '../../api/queries';
import { rankBySuggestions, type RankedChoice } from '../location/suggestions';
import { planFirst } from './dispatchPlan';

/**
 * The free ambulances ranked by the server's arrival estimate for `at` and the call's priority
 * (units meeting its need first, the plan's own units before them), with the server's plan for that priority; null while no location
 * is known or the ranking is not there (yet, or it failed: the lists then keep their own order).
 * A new priority for the same place keeps the ranking shown until its own arrives, so the
 * preselected unit does not blink away while the type is chosen.
 */
export function usePlannedSuggestions(at: LatLon | null, available: readonly AmbulanceDto[], priority: Priority | null): {
  ranked: RankedChoice[] | null; plan: DispatchPlan | null; loading: boolean; failed: boolean;
} {
  const options = queries.dispatchSuggestions(at?.latitude ?? 0, at?.longitude ?? 0, priority);
  const query = useQuery({
    ...options,
    enabled: at != null,
    placeholderData: (previous, previousQuery) =>
      previousQuery && previousQuery.queryKey[2] === options.queryKey[2] && previousQuery.queryKey[3] === options.queryKey[3] ? previous : undefined,
  });
  const suggestions = at ? query.data?.suggestions : undefined;
  const plan = at && priority != null ? (query.data?.plan ?? null) : null;
  const ranked = useMemo(() => (suggestions ? planFirst(rankBySuggestions(available, suggestions), plan) : null), [available, suggestions, plan]);
  return {
    ranked,
    plan,
    loading: at != null && query.isPending,
    failed: at != null && query.isError,
  };
}
