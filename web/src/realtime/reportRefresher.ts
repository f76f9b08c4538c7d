import type { Query, QueryClient } from '@tanstack/react-query';
import { REPORTS_KEY, reportRefreshMs } from '../api/reportRefresh';

/**
 * Reports are computed by the server, never patched here: a call change asks again for each one
 * it can alter, at most once per its window since its figures were fetched (reportRefreshMs: 5 s
 * for today's, a minute for a month, 10 minutes for a longer period reaching today, never for a
 * period wholly past). A change inside the window is answered at its end, so none is lost.
 *
 * A refresh never abandons one on its way (`cancelRefetch: false`): the server would go on
 * computing the abandoned one. One shown nowhere is only marked stale (asked for when next shown).
 */
export function reportRefresher(qc: QueryClient, delay: (fn: () => void, ms: number) => () => void) {
  /** The reports waiting for their window's end, by query hash. */
  const waiting = new Map<string, () => void>();

  function refresh(query: Query) {
    waiting.delete(query.queryHash);
    const windowMs = reportRefreshMs(query.queryKey);
    if (windowMs == null || qc.getQueryCache().get(query.queryHash) !== query) return;
    if (!query.isActive()) {
      void qc.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: 'none' });
      return;
    }
    const now = Date.now();
    // While one is on its way, the window starts again from now: what it answers may predate the change.
    const fetchedAt = query.state.fetchStatus === 'fetching' ? now : Math.max(query.state.dataUpdatedAt, query.state.errorUpdatedAt);
    const wait = fetchedAt + windowMs - now;
    if (wait <= 0) void qc.invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false });
    else waiting.set(query.queryHash, delay(() => refresh(query), wait));
  }

  return {
    /** A call was created, changed or deleted. */
    callChanged() {
      for (const query of qc.getQueryCache().findAll({ queryKey: REPORTS_KEY })) if (!waiting.has(query.queryHash)) refresh(query);
    },
    stop() {
      for (const cancel of waiting.values()) cancel();
      waiting.clear();
    },
  };
}
