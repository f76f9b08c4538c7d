import { z } from 'zod';
import { DEFAULT_REPORT_DAYS, MAX_REPORT_DAYS } from './reports';
import { isTimeZone, zonedMidnight } from './zonedTime';

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO date-time with its offset, or a date ("2026-11-01": its midnight in `tz`). */
const instant = z.string().trim().refine((v) => DATE.test(v) || z.iso.datetime({ offset: true }).safeParse(v).success, {
  error: 'must be an ISO 8601 date (2026-11-01) or date and time with offset (2026-11-01T00:00:00+05:30)',
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
