import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../../../api/client';
import { CASE_PAGE_DEFAULT, type CaseDto, type CaseHistoryQuery } from '../../../api/contract';
import { queries } from '../../../api/queries';
import { useHistoryChanges } from '../../../realtime/historyChanges';
import { useLoadState, type LoadState } from '../useLoadState';
import { historyQueryOf, withPage, withQuery, type HistorySearch } from './historySearch';
import type { HistoryPaginationProps } from './HistoryPagination';
import { useSearchText } from './useSearchText';

export type HistoryOrder = 'asc' | 'desc';

/** Moves the screen's route to another search (a new history entry, or in place while typing). */
export type GoToSearch<S> = (next: S, options?: { replace?: boolean }) => void;

export interface CaseHistory {
  load: LoadState;
  cases: CaseDto[];
  /** The search box's text (the URL gets it once typing pauses). */
  text: string;
  setText: (text: string) => void;
  /** By creation time; newest first unless the URL says otherwise. */
  order: HistoryOrder;
  setOrder: (order: HistoryOrder) => void;
  setFilter: (change: Pick<CaseHistoryQuery, 'status' | 'priority'>) => void;
  pagination: HistoryPaginationProps;
  /** Calls changed since this page was fetched: a count, null when unknown, 0 when none. */
  changes: number | null;
  /** Fetches the page again (the banner's "show", Refresh) and forgets the noted changes. */
  refresh: () => void;
  refreshing: boolean;
}

/**
 * One history screen's page, searched and paged by the server (GET /api/cases?scope=all), with
 * its search, order, filters and page kept in the route's search params (`go` moves them), so a
 * link or a reload shows the same page and Back steps through the pages. The page never changes
 * under its reader: it is fetched when the reader asks for it (a new search or page, Refresh, the
 * changes banner), not when calls change; the live cache only counts what changed since.
 * `enabled` false (another tab open) fetches nothing.
 */
/** SPEC's staff cases list failure texts: a refusal by the server, or no answer at all. */
export const casesFailText = (e: unknown) => (e instanceof ApiError ? 'Failed to fetch cases from database' : 'Failed to fetch cases');

export function useCaseHistory<S extends HistorySearch>(
  search: S, go: GoToSearch<S>, { enabled = true, failText = casesFailText }: { enabled?: boolean; failText?: (e: unknown) => string } = {},
): CaseHistory {
  const qc = useQueryClient();
  const query = useQuery({
    ...queries.caseHistory(historyQueryOf(search)),
    enabled,
    // The page on screen stays until the next one arrives (no blank table between pages).
    placeholderData: keepPreviousData,
    // A network coming back must not replace the page being read: the banner offers it.
    refetchOnReconnect: false,
  });
  const load = useLoadState([{ query, failText }]);
  const { count, reset } = useHistoryChanges(qc);

  // A fetch answers with every change made before it: what was noted so far is in it.
  const fetching = query.fetchStatus === 'fetching';
  useEffect(() => {
    if (fetching) reset();
  }, [fetching, reset]);

  // A cursor the server refuses (an old link, another server's) gives way to the first page.
  const badCursor = search.cursor != null && query.error instanceof ApiError && query.error.status === 400;
  useEffect(() => {
    if (badCursor) go(withPage(search, 0, null), { replace: true });
  }, [badCursor, go, search]);

  const [text, setText] = useSearchText(search.q ?? '', (q) => go(withQuery(search, { q }), { replace: true }));
  const data = query.data;
  const page = search.page ?? 0;
  const busy = query.isPlaceholderData;

  return {
    load,
    cases: data?.cases ?? [],
    text,
    setText,
    order: search.order ?? 'desc',
    setOrder: (order) => go(withQuery(search, { order })),
    setFilter: (change) => go(withQuery(search, change)),
    pagination: {
      page,
      limit: search.limit ?? CASE_PAGE_DEFAULT,
      shown: data?.cases.length ?? 0,
      total: data?.total ?? 0,
      totalExact: data?.total_exact ?? true,
      // While the next page loads the previous one's cursors are not this page's: no step until it is in.
      hasPrev: page > 0 && !busy,
      hasNext: data?.next_cursor != null && !busy,
      onPage: (next) => go(withPage(search, next, next === 0 ? null : next > page ? (data?.next_cursor ?? null) : (data?.prev_cursor ?? null))),
      onLimit: (limit) => go(withQuery(search, { limit })),
    },
    changes: count,
    refresh: () => {
      reset();
      void query.refetch();
    },
    refreshing: query.isFetching,
  };
}
