import { localDate } from './contract';

/** The key every server-computed report is cached under (todayReport, measuredReport, reports.*). */
export const REPORTS_KEY = ['reports'] as const;

/** Today's own figures (a day's calls, cheap to count): refreshed as calls change, at most this often. */
export const REPORT_LIVE_MS = 5000;
/** A period of up to LONG_PERIOD_DAYS reaching today: at most once a minute. */
export const REPORT_PERIOD_MS = 60_000;
/** A longer period reaching today (up to 400 days: seconds of the server's time each): at most every 10 minutes. */
export const REPORT_LONG_PERIOD_MS = 10 * 60_000;
export const LONG_PERIOD_DAYS = 31;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * How often a call change may refresh the report cached under this key (at most once per this
 * many ms since its figures were fetched), or null: never, as a call taken or changed now cannot
 * alter it (a period that ended before today; corrections are seen on Refresh).
 * Keys: [reports, today, date, tz], [reports, measured, tz] (the last 30 days), and the Reports
 * screen's [reports, kind, from, to, tz] (half-open local dates: `to` is the day after the last).
 */
export function reportRefreshMs(queryKey: readonly unknown[], nowMs = Date.now()): number | null {
  if (queryKey[0] !== REPORTS_KEY[0]) return null;
  if (queryKey[1] === 'today') return REPORT_LIVE_MS;
  if (queryKey[1] === 'measured') return REPORT_PERIOD_MS;
  if (queryKey.length !== 5) return null;
  const [, , from, to, tz] = queryKey as [string, string, string, string, string];
  const today = localDate(nowMs, tz);
  if (to <= today) return null;
  const days = dayNumber(to) - dayNumber(from);
  return days <= 1 ? REPORT_LIVE_MS : days <= LONG_PERIOD_DAYS ? REPORT_PERIOD_MS : REPORT_LONG_PERIOD_MS;
}

/** A report's staleTime: as long as its refresh window, forever for a period wholly past (Refresh asks again). */
export const reportStaleTime = (query: { queryKey: readonly unknown[] }) => reportRefreshMs(query.queryKey) ?? Infinity;
