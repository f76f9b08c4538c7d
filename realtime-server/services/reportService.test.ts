import { describe, expect, it } from 'vitest';
import { localParts } from '../contract/zonedTime';
import type { CommitmentRow, FleetRow } from '../../db/repositories/reportRepository';
import { FIXTURE_PERIOD } from '../testing/reportFixture';
import { buildDemand, buildUtilisation } from './reportService';
import { isoMs, zoneClock } from './reportTime';

/** Demand, utilisation and report time (the response-time figures: responseTimes.test.ts). */

describe('buildDemand', () => {
  it('counts calls by local hour of week, Monday first', () => {
    const { counts } = buildDemand([
      '2026-10-01T19:00:00.000Z', // Friday 2 October, 00:30 in Kolkata (Thursday 19:00 in UTC)
      '2026-10-04T18:29:00.000Z', // Sunday 23:59
      '2026-10-05T03:00:00.000Z', // Monday 08:30
      '2026-10-05T03:20:00.000Z', // Monday 08:50
    ], { ...FIXTURE_PERIOD, from: '2026-09-30T18:30:00.000Z', to: '2026-10-05T18:30:00.000Z' });
    const expected = Array.from({ length: 7 }, () => Array(24).fill(0));
    expected[4][0] = 1;
    expected[6][23] = 1;
    expected[0][8] = 2;
    expect(counts).toEqual(expected);
  });

  it('counts both 01:30s of the night British Summer Time ends in the same hour', () => {
    const { counts } = buildDemand(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z', '2026-10-25T00:59:00.000Z'],
      { from: '2026-10-24T23:00:00.000Z', to: '2026-10-26T00:00:00.000Z', tz: 'Europe/London' });
    expect(counts[6][1]).toBe(3);
    expect(counts.flat().reduce((s, n) => s + n)).toBe(3);
  });
});

describe('reportTime', () => {
  it('reads a stored time as Date.parse does, and anything else through Date.parse', () => {
    for (const s of ['2026-10-01T19:00:00.000Z', '2024-02-29T23:59:59.999Z', '1999-12-31T00:00:00.001Z', '2026-10-01T19:00:00+05:30']) {
      expect(isoMs(s)).toBe(Date.parse(s));
    }
  });

  it('agrees with Intl on local day, hour and weekday across DST switches, half-hour ones included', () => {
    for (const [tz, day] of [['Europe/London', '2026-10-25'], ['America/New_York', '2026-03-08'], ['Australia/Lord_Howe', '2026-04-05'], ['Asia/Kolkata', '2026-10-01']]) {
      const clock = zoneClock(tz);
      const start = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
      for (let ms = start; ms < start + 3 * 86_400_000; ms += 7 * 60_000) {
        const p = localParts(ms, tz);
        const s = clock.slot(ms);
        expect([clock.date(s.day), s.hour, s.weekday], `${tz} ${new Date(ms).toISOString()}`)
          .toEqual([`${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`, p.hour, p.weekday]);
      }
    }
  });
});

describe('buildUtilisation', () => {
  const period = { from: '2026-08-01T00:00:00.000Z', to: '2026-08-02T00:00:00.000Z' };
  const NOW = isoMs('2026-08-05T00:00:00.000Z');
  const fleet: FleetRow[] = [
    { id: 1, license_plate: 'KA01 A 1', created_at: '2026-07-01T00:00:00.000Z' },
    { id: 2, license_plate: 'KA01 A 2', created_at: '2026-08-01T12:00:00.000Z' },
  ];
  const c = (ambulance_id: number | null, license_plate: string, from: string, to: string | null): CommitmentRow =>
    ({ ambulance_id, license_plate, dispatched_at: `2026-${from}:00.000Z`, ended_at: to && `2026-${to}:00.000Z` });

  it('sums each ambulance\'s assignments clipped to the period over its time on shift, a deleted one by its plate', () => {
    const report = buildUtilisation([
      c(1, 'KA01 A 1', '07-31T23:00', '08-01T01:00'), // an hour before the period is not counted
      c(1, 'KA01 A 1', '08-01T10:00', '08-01T10:30'),
      c(1, 'KA01 A 1', '08-01T23:30', null), // open since: up to the period's end
      c(2, 'KA01 A 2', '08-01T13:00', '08-01T15:00'),
      c(null, 'KA01 Z 9', '08-01T02:00', '08-01T04:00'), // its ambulance was deleted
    ], fleet, period, NOW);
    expect(report).toEqual({
      ...period,
      overall: { committed_s: 21_600, on_shift_s: 144_000, share: 0.15 },
      ambulances: [
        { ambulance_id: 1, license_plate: 'KA01 A 1', committed_s: 7200, on_shift_s: 86_400, share: 0.0833 },
        // Added at noon: on shift for half the period.
        { ambulance_id: 2, license_plate: 'KA01 A 2', committed_s: 7200, on_shift_s: 43_200, share: 0.1667 },
        // Since when it existed is not kept: from the period's start to its last assignment's end.
        { ambulance_id: null, license_plate: 'KA01 Z 9', committed_s: 7200, on_shift_s: 14_400, share: 0.5 },
      ],
    });
  });

  it('counts each unit of a call with several for its own time, never the call\'s span', () => {
    // One call from 10:00: ambulance 1 dispatched at 10:00 and cleared at 11:00; ambulance 2 (a car) sent at 10:05 and
    // stood down at 10:15; ambulance 2 sent again at 10:20, cleared at 10:50 (a second assignment of the same call).
    const report = buildUtilisation([
      c(1, 'KA01 A 1', '08-01T10:00', '08-01T11:00'),
      c(2, 'KA01 A 2', '08-01T10:05', '08-01T10:15'),
      c(2, 'KA01 A 2', '08-01T10:20', '08-01T10:50'),
    ], fleet, period, NOW);
    expect(report.ambulances.map((u) => [u.license_plate, u.committed_s])).toEqual([['KA01 A 1', 3600], ['KA01 A 2', 2400]]);
    expect(report.overall.committed_s).toBe(6000);
  });

  it('ends the period at now, and an open assignment with it', () => {
    const report = buildUtilisation([c(1, 'KA01 A 1', '08-01T11:00', null)], fleet, period, isoMs('2026-08-01T12:00:00.000Z'));
    expect(report.ambulances).toEqual([{ ambulance_id: 1, license_plate: 'KA01 A 1', committed_s: 3600, on_shift_s: 43_200, share: 0.0833 }]);
  });
});
