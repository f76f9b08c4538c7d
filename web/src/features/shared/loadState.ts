/**
 * What a screen may claim about a list it loads. Unknown is never shown as zero: a count or
 * an empty state is only drawn once every list behind it has loaded at least once.
 *
 * - loading: no answer yet, no failure yet.
 * - failed:  some list has no data and its last attempt failed (the panel with Retry).
 * - loaded:  every list has data; `stale` says when that data may be out of date.
 */
export type LoadPhase = 'loading' | 'failed' | 'loaded';

export type StaleReason = 'refresh-failed' | 'offline';

/** The parts of a TanStack query result this logic reads (plain data, so it is testable without React). */
export interface SourceSnapshot {
  hasData: boolean;
  /** The error of the last attempt, or of an attempt that is being retried; null when none failed. */
  failure: unknown;
  /** When the data was last fetched (ms), 0 without data. */
  dataUpdatedAt: number;
}

export interface LoadVerdict {
  phase: LoadPhase;
  /** Indexes of the sources without data whose last attempt failed (their texts go in the panel). */
  failed: number[];
  /** Set when the screen shows data that may be out of date, with the oldest fetch time. */
  stale: { reason: StaleReason; since: number } | null;
}

/**
 * Decides loading / failed / loaded for the lists behind one screen. `live` is false while
 * the tab's socket is down (its updates are not arriving, so shown data may be old).
 */
export function judgeLoad(sources: SourceSnapshot[], live: boolean): LoadVerdict {
  const failed = sources.flatMap((s, i) => (!s.hasData && s.failure != null ? [i] : []));
  if (failed.length > 0) return { phase: 'failed', failed, stale: null };
  if (sources.some((s) => !s.hasData)) return { phase: 'loading', failed: [], stale: null };
  const since = Math.min(...sources.map((s) => s.dataUpdatedAt));
  const refreshFailed = sources.some((s) => s.failure != null);
  const stale = refreshFailed ? { reason: 'refresh-failed' as const, since } : !live ? { reason: 'offline' as const, since } : null;
  return { phase: 'loaded', failed: [], stale };
}

/** "Showing data from 14:02 — may be out of date", with why. */
export function staleText(reason: StaleReason, since: number, locale?: string): string {
  const time = new Date(since).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const why = reason === 'offline' ? 'Live updates are paused' : 'Could not refresh';
  return `${why}. Showing data from ${time} — may be out of date.`;
}

/** A count while known, else a dash (never a zero standing in for "unknown"). */
export const knownOr = (phase: LoadPhase, value: number): number | null => (phase === 'loaded' ? value : null);
