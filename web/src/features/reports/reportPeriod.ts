import { DEFAULT_REPORT_DAYS, MAX_REPORT_DAYS } from '../../api/contract';
import type { ReportPeriodParams } from '../../api/queries';

/**
 * The period every report is asked for: local dates in the browser's zone, half-open, so `to`
 * is the day AFTER the last day shown (the server reads a date as its midnight in `tz`).
 */
export type ReportPeriod = ReportPeriodParams;

export const PRESETS = ['today', 'last7', 'last30', 'month', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

export const PRESET_LABELS: Record<Preset, string> = {
  today: 'Today',
  last7: 'Last 7 days',
  last30: `Last ${DEFAULT_REPORT_DAYS} days`,
  month: 'This month',
  custom: 'Custom',
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Calendar arithmetic on "YYYY-MM-DD" done in UTC, so a daylight-saving change never shifts a day. */
export function addDays(date: string, days: number): string {
  const m = DATE.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days)).toISOString().slice(0, 10);
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The browser's IANA zone, UTC when it gives none. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** First and last day (both shown, inclusive) of a preset, counted back from `today`. */
export function presetDays(preset: Exclude<Preset, 'custom'>, today: string): { first: string; last: string } {
  switch (preset) {
    case 'today': return { first: today, last: today };
    case 'last7': return { first: addDays(today, -6), last: today };
    case 'last30': return { first: addDays(today, -(DEFAULT_REPORT_DAYS - 1)), last: today };
    case 'month': return { first: `${today.slice(0, 8)}01`, last: today };
  }
}

/** What is wrong with a custom choice of days, in words, or null when it can be asked for. */
export function customProblem(first: string, last: string): string | null {
  if (!DATE.test(first) || !DATE.test(last)) return 'Choose both a first and a last day';
  const days = dayNumber(last) - dayNumber(first) + 1;
  if (days < 1) return 'The first day must not be after the last day';
  if (days > MAX_REPORT_DAYS) return `A report covers at most ${MAX_REPORT_DAYS} days`;
  return null;
}

/** The query period for days shown first…last (inclusive): `to` is the day after the last. */
export const periodOf = (first: string, last: string, tz: string): ReportPeriod => ({ from: first, to: addDays(last, 1), tz });

/** "1 Nov 2026 – 30 Nov 2026" (or one day), the days a period shows, in words. */
export function periodText(p: ReportPeriod, locale?: string): string {
  const f = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const first = f.format(new Date(`${p.from}T00:00:00Z`));
  const last = f.format(new Date(`${addDays(p.to, -1)}T00:00:00Z`));
  return first === last ? first : `${first} – ${last}`;
}
