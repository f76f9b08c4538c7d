import { useQuery } from '@tanstack/react-query';
import { casesFailText } from '../shared/caseHistory/useCaseHistory';
import { queries } from '../../api/queries';
import { activeCasesOf, matchesSearch, sortByCreated, type SortOrder } from '../../domain/caseRules';
import { isOpenCall, urgentBoardOrder } from '../../domain/callLife';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useCasePlaces } from './useCasePlaces';
import { useErrorToast } from '../shared/useErrorToast';
import { useLoadState } from '../shared/useLoadState';
import { useServerNow } from '../shared/useNow';


/** How often the board re-reads which calls went past their target (the cards' clocks tick each second on their own). */
const ORDER_TICK_MS = 5000;

/**
 * The Emergency Cases tab's data: the live board (30 s polling only while the socket is
 * down; its size follows what is open, never history), place texts, and the open calls that
 * match the search box (the board is small: searched here, as typed). Until Sort is pressed
 * they are in board order: priority, the calls past their target on top of their priority,
 * then the waiting, oldest first (urgentBoardOrder); then by creation date. The header's Total Cases is the server's count of every case.
 */
export function useCasesBoard(search: string, order: SortOrder) {
  const query = useQuery({ ...queries.cases(), refetchInterval: usePollingFallback(30_000) });
  // Every case stored (SPEC's Total Cases): the board's counts, not the board's length (which
  // is the total only from a server that answers every case, without counts).
  const counts = useQuery(queries.caseCounts());
  const config = useQuery(queries.config());
  const now = useServerNow(ORDER_TICK_MS);
  useErrorToast(query.error, query.errorUpdatedAt, casesFailText);
  const load = useLoadState([{ query, failText: casesFailText }]);

  const cases = query.data ?? [];
  const open = cases.filter(isOpenCall);
  // Place names only for the cards shown (not for the calls that ended on the board).
  const places = useCasePlaces(open);
  const found = open.filter((c) => matchesSearch(c, search, places.get(c.id)));

  return {
    /** loading / failed / loaded: counts and empty states only when loaded. */
    load,
    refreshing: query.isFetching,
    refresh: () => void query.refetch(),
    places,
    /** The Emergency Cases tab: open calls, active and waiting. */
    visibleOpen: order === 'none' ? urgentBoardOrder(found, config.data, now) : sortByCreated(found, order),
    activeCount: activeCasesOf(cases).length,
    /** Every case stored; null until the board has answered. */
    totalCount: counts.data?.total ?? null,
  };
}
