import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AmbulanceDto, LatLon } from '../../api/contract';
import { queries } from '../../api/queries';
import { rankBySuggestions, type RankedChoice } from './suggestions';

/**
 * The free ambulances ranked by the server's arrival estimate for `at`; null while no location
 * is known or the ranking is not there (yet, or it failed: the lists then keep their own order).
 */
export function useSuggestions(at: LatLon | null, available: readonly AmbulanceDto[]): { ranked: RankedChoice[] | null; loading: boolean; failed: boolean } {
  const query = useQuery({
    ...queries.dispatchSuggestions(at?.latitude ?? 0, at?.longitude ?? 0),
    enabled: at != null,
  });
  const suggestions = at ? query.data?.suggestions : undefined;
  const ranked = useMemo(() => (suggestions ? rankBySuggestions(available, suggestions) : null), [available, suggestions]);
  return { ranked, loading: at != null && query.isPending, failed: at != null && query.isError };
}
