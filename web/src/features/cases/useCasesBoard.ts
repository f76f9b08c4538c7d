import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { queries } from '../../api/queries';
import { activeCasesOf, matchesSearch, sortByCreated, type SortOrder } from '../../domain/caseRules';
import { boardOrder, isOpenCall } from '../../domain/callLife';
import { casesTableOrder } from '../shared/callLifeText';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useCasePlaces } from './useCasePlaces';
import { useErrorToast } from '../shared/useErrorToast';
import { useLoadState } from '../shared/useLoadState';

const casesFailText = (e: unknown) => (e instanceof ApiError ? 'Failed to fetch cases from database' : 'Failed to fetch cases');

/**
 * The cases board's data: the live cases query (30 s polling only while the socket is
 * down), place texts, free-text search and the creation-date sort toggle. Until the toggle is
 * pressed the open calls (active and waiting) are in board order: priority, waiting calls on
 * top of their priority, oldest first; every other case follows, newest first.
 */
export function useCasesBoard() {
  const query = useQuery({ ...queries.cases(), refetchInterval: usePollingFallback(30_000) });
  // Every case stored (SPEC's Total Cases): the board's counts, not the board's length (which
  // is the total only from a server that answers every case, without counts).
  const counts = useQuery(queries.caseCounts());
  useErrorToast(query.error, query.errorUpdatedAt, casesFailText);
  const load = useLoadState([{ query, failText: casesFailText }]);

  const cases = query.data ?? [];
  const places = useCasePlaces(cases);
  const [search, setSearch] = useState('');
  // Starts as received (the board's order, kept by the live cache); the first press sorts ascending, each press toggles.
  const [order, setOrder] = useState<SortOrder>('none');
  const toggleSort = () => setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));

  const found = cases.filter((c) => matchesSearch(c, search, places.get(c.id)));
  const visible = order === 'none' ? casesTableOrder(found) : sortByCreated(found, order);
  const visibleOpen = order === 'none' ? boardOrder(found) : visible.filter(isOpenCall);

  return {
    /** loading / failed / loaded: counts and empty states only when loaded. */
    load,
    refreshing: query.isFetching,
    refresh: () => void query.refetch(),
    places,
    search,
    setSearch,
    order,
    toggleSort,
    visible,
    /** The Emergency Cases tab: open calls, active and waiting. */
    visibleOpen,
    activeCount: activeCasesOf(cases).length,
    totalCount: counts.data?.total ?? cases.length,
  };
}
