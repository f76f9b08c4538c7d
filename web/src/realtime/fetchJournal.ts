import type { QueryCacheNotifyEvent, QueryClient, QueryKey } from '@tanstack/react-query';

/** Past this many changes held for one fetch, the fetch is redone instead (memory stays bounded). */
export const MAX_JOURNAL = 5000;

export interface FetchJournal<E> {
  /** A change just applied to the cache: kept while a fetch is on its way, to be applied again on its snapshot. */
  record: (entry: E) => void;
  /**
   * Events may have been missed before now (a connect): a fetch that left before this call
   * is redone when it lands. Call it just before asking for the refetch.
   */
  mark: () => void;
  stop: () => void;
}

const sameKey = (a: QueryKey, b: QueryKey) => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * A refetch's answer is a snapshot taken some time after the request left; changes that arrive
 * while it is on its way (events, a write's own answer) may be newer than it. They are kept
 * here and `replay`ed on top of the snapshot when it lands (each change only moves a row
 * forward, so applying one twice changes nothing): a refetch never overwrites a newer row with
 * an older one. One journal per cached list (the board, the fleet).
 */
export function fetchJournal<E>(qc: QueryClient, queryKey: QueryKey, replay: (entries: E[]) => void): FetchJournal<E> {
  let inFlight: { since: number; entries: E[] } | undefined;
  /** Counts marks: a fetch that left before the latest one may lack what was missed. */
  let epoch = 0;
  const refetch = () => void qc.invalidateQueries({ queryKey, exact: true });

  const onCacheEvent = (event: QueryCacheNotifyEvent) => {
    if (event.type !== 'updated' || !sameKey(event.query.queryKey as QueryKey, queryKey)) return;
    const action = event.action as { type: string; manual?: boolean };
    if (action.type === 'fetch') {
      // A fetch starting while one is on its way replaces it (TanStack cancels the first): the
      // snapshot will be the new one's; the changes held since the first stay (replaying them is harmless).
      if (inFlight) inFlight.since = epoch;
      else inFlight = { since: epoch, entries: [] };
    } else if (action.type === 'success' && !action.manual) {
      const pending = inFlight;
      inFlight = undefined;
      if (!pending) return;
      if (pending.entries.length) replay(pending.entries);
      if (pending.since !== epoch) refetch();
    } else if (action.type === 'error') {
      inFlight = undefined;
    }
  };
  const unsubscribe = qc.getQueryCache().subscribe(onCacheEvent);

  return {
    record: (entry) => {
      if (!inFlight) return;
      inFlight.entries.push(entry);
      if (inFlight.entries.length > MAX_JOURNAL) {
        inFlight = undefined;
        refetch();
      }
    },
    mark: () => {
      epoch += 1;
    },
    stop: unsubscribe,
  };
}
