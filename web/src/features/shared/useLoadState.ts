import type { UseQueryResult } from '@tanstack/react-query';
import { useRef } from 'react';
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
  const lastFailure = useRef<unknown[]>([]);
  const snapshots = sources.map(({ query }, i) => {
    const hasData = query.data !== undefined;
    const now = query.error ?? query.failureReason ?? null;
    if (hasData && now == null) lastFailure.current[i] = null;
    else if (now != null) lastFailure.current[i] = now;
    return { hasData, failure: hasData ? now : (lastFailure.current[i] ?? null), dataUpdatedAt: query.dataUpdatedAt };
  });
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
