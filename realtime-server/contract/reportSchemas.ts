import { z } from 'zod';
import { DEFAULT_REPORT_DAYS, MAX_REPORT_DAYS } from './reports';
import { isTimeZone, zonedMidnight } from './zonedTime';

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Reports begin at the epoch: a year before it is a typo, and years 0–99 would be read as 1900–1999 by Date.UTC. */
const FIRST_YEAR = 1970;
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/**
 * An ISO date-time with its offset, or a date ("2026-11-01": its midnight in `tz`). Only days
 * the calendar has: a 2026-13-45 or 2026-02-30 refused, never rolled over into another date.
 */
const instant = z.string().trim().check((c) => {
  const v = c.value;
  if (DATE.test(v) && !isoDate.safeParse(v).success) {
    c.issues.push({ code: 'custom', input: v, message: `${v} is not a day of the calendar (months 01–12, days as the month has)` });
  } else if (!DATE.test(v) && !isoDateTime.safeParse(v).success) {
    c.issues.push({ code: 'custom', input: v, message: 'must be an ISO 8601 date (2026-11-01) or date and time with offset (2026-11-01T00:00:00+05:30)' });
  } else if (Number(v.slice(0, 4)) < FIRST_YEAR) {
    c.issues.push({ code: 'custom', input: v, message: `must be in ${FIRST_YEAR} or later` });
  }
});

function toMs(v: string, tz: string): number {
  const m = DATE.exec(v);
  return m ? zonedMidnight(Number(m[1]), Number(m[2]), Number(m[3]), tz) : Date.parse(v);
}

/**
 * ?from=&to=&tz= of every report: the half-open period [from, to). A date means its midnight in
 * `tz` (so `to=2026-11-30` ends as the 30th begins: pass the day after the last one wanted).
 * Defaults: tz UTC, to now, from DEFAULT_REPORT_DAYS before `to`.
 */
export const reportPeriodQuerySchema = z.object({
  from: instant.optional(),
  to: instant.optional(),
  tz: z.string().trim().max(64).refine(isTimeZone, { error: 'must be an IANA time zone such as Asia/Kolkata or UTC' }).default('UTC'),
}).transform((v, ctx) => {
  const to = v.to ? toMs(v.to, v.tz) : Date.now();
  const from = v.from ? toMs(v.from, v.tz) : to - DEFAULT_REPORT_DAYS * DAY_MS;
  if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be before to' });
  if (to - from > MAX_REPORT_DAYS * DAY_MS) ctx.addIssue({ code: 'custom', path: ['to'], message: `a period spans at most ${MAX_REPORT_DAYS} days` });
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), tz: v.tz };
});
export type ReportPeriod = z.infer<typeof reportPeriodQuerySchema>;
