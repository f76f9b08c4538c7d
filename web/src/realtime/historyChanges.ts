import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * Calls created, changed or deleted since the open history page was fetched. A history page
 * (All Cases, Case Management) does not jump under its reader when a call changes: the live
 * cache notes the call here and the page offers "N new or changed calls — show", which
 * refetches it. One store per QueryClient (one per tab; tests make their own).
 */
export interface HistoryChanges {
  /** A call's id, from a case event. */
  note: (id: string) => void;
  /** Events may have been missed (a reconnect): the page is stale by an unknown count. */
  noteUnknown: () => void;
  /** Distinct calls noted, or null when only "unknown" was noted; 0 when none. */
  count: () => number | null;
  /** The page was fetched afresh. */
  reset: () => void;
  subscribe: (listener: () => void) => () => void;
}

/** Past this many distinct ids only the count grows (memory stays bounded on a busy shift). */
const MAX_IDS = 1000;

export function createHistoryChanges(): HistoryChanges {
  let ids = new Set<string>();
  let extra = 0;
  let unknown = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const store: HistoryChanges = {
    note: (id) => {
      if (ids.has(id)) return;
      if (ids.size < MAX_IDS) ids.add(id);
      else extra += 1;
      changed();
    },
    noteUnknown: () => {
      if (unknown) return;
      unknown = true;
      changed();
    },
    count: () => (ids.size + extra > 0 ? ids.size + extra : unknown ? null : 0),
    reset: () => {
      if (!ids.size && !extra && !unknown) return;
      ids = new Set();
      extra = 0;
      unknown = false;
      changed();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return store;
}

const stores = new WeakMap<QueryClient, HistoryChanges>();

/** The tab's store (created on first use). */
export function historyChangesOf(qc: QueryClient): HistoryChanges {
  let s = stores.get(qc);
  if (!s) {
    s = createHistoryChanges();
    stores.set(qc, s);
  }
  return s;
}

/** For a history screen: how many calls changed since its page was fetched, and reset() after refetching it. */
export function useHistoryChanges(qc: QueryClient): { count: number | null; reset: () => void } {
  const store = historyChangesOf(qc);
  const count = useSyncExternalStore(store.subscribe, store.count, store.count);
  const reset = useCallback(() => store.reset(), [store]);
  return { count, reset };
}
