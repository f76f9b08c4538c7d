import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useConnectionState } from '../../realtime/LiveProvider';
import { judgeLoad, type LoadVerdict } from './loadState';

export interface LoadSource {
  query: UseQueryResult<unknown, unknown>;
  /** The spec's text for this list's failure (non-OK answer or exception). */
  failText: (error: unknown) => string;
}

export interface LoadState extends LoadVerdict {
  /** The spec's texts of the lists that could not be loaded. */
  failures: string[];
  retry: () => void;
  retrying: boolean;
}

/**
 * loading / failed / loaded for the lists behind a screen (see judgeLoad). A failure stays
 * until that list loads: a Retry in flight resets TanStack's error state, but the panel
 * must not blink away into a spinner and back, so the last failure is remembered here.
 */
export function useLoadState(sources: LoadSource[]): LoadState {
  const state = useConnectionState();
  const [lastFailure, setLastFailure] = useState<unknown[]>([]);
  const seen = sources.map(({ query }, i) => {
    const hasData = query.data !== undefined;
    const now = query.error ?? query.failureReason ?? null;
    const last = hasData && now == null ? null : (now ?? lastFailure[i]);
    return { last, snapshot: { hasData, failure: hasData ? now : (last ?? null), dataUpdatedAt: query.dataUpdatedAt } };
  });
  // Kept from render to render: state adjusted while rendering, as React's docs do for a value that follows props.
  const failures = seen.map((s) => s.last);
  if (failures.length !== lastFailure.length || failures.some((f, i) => f !== lastFailure[i])) setLastFailure(failures);
  const snapshots = seen.map((s) => s.snapshot);
  const verdict = judgeLoad(snapshots, state !== 'reconnecting' && state !== 'refused');

  const queries = sources.map((s) => s.query);
  // Made afresh each render: it must read this render's query states (a memoised one kept the
  // states of the render it was made in, and a Retry after a failed refresh did nothing).
  const retry = () => {
    for (const q of queries) if (q.data === undefined || q.isError || state !== 'live') void q.refetch();
  };

  return {
    ...verdict,
    failures: [...new Set(verdict.failed.map((i) => sources[i].failText(snapshots[i].failure)))],
    retry,
    retrying: queries.some((q) => q.isFetching),
  };
}
