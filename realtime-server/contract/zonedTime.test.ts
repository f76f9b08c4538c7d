import { expect, it } from 'vitest';
import { localParts, reportPeriodQuerySchema, zonedMidnight } from '.';
it('reads local midnights and weekdays in a zone, across DST, and refuses bad periods', () => {
  expect(new Date(zonedMidnight(2026, 11, 1, 'Asia/Kolkata')).toISOString()).toBe('2026-10-31T18:30:00.000Z');
  expect(new Date(zonedMidnight(2026, 3, 29, 'Europe/London')).toISOString()).toBe('2026-03-29T00:00:00.000Z');
  expect(new Date(zonedMidnight(2026, 3, 30, 'Europe/London')).toISOString()).toBe('2026-03-29T23:00:00.000Z');
  expect(new Date(zonedMidnight(2026, 11, 1, 'America/New_York')).toISOString()).toBe('2026-11-01T04:00:00.000Z');
  expect(new Date(zonedMidnight(2026, 11, 2, 'America/New_York')).toISOString()).toBe('2026-11-02T05:00:00.000Z');
  expect(localParts(Date.parse('2026-11-23T00:00:00Z'), 'UTC').weekday).toBe(0);
  expect(reportPeriodQuerySchema.parse({ from: '2026-11-01', to: '2026-11-02', tz: 'Asia/Kolkata' })).toEqual({ from: '2026-10-31T18:30:00.000Z', to: '2026-11-01T18:30:00.000Z', tz: 'Asia/Kolkata' });
  expect(reportPeriodQuerySchema.safeParse({ tz: 'Mars/Base' }).success).toBe(false);
  expect(reportPeriodQuerySchema.safeParse({ from: '2026-11-02', to: '2026-11-01' }).success).toBe(false);
});
