import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { localParts } from '../contract/zonedTime';
import type { CommitmentRow, FleetRow } from '../../db/repositories/reportRepository';
import { FIXTURE_CALLS, FIXTURE_PERIOD } from '../testing/reportFixture';
import { buildDemand, buildResponseTimes, buildUtilisation, callGrouper, callIntervals, respondingAssignment } from './reportService';
import { isoMs, zoneClock } from './reportTime';

/**
 * The report figures from hand-made calls whose percentiles are known (testing/reportFixture.ts):
 * nearest rank, so p50 of ten values is the 5th, p90 the 9th; of fourteen, the 7th and the 13th.
 */
const { priorities } = loadConfig({});
const none = (missing: number) => ({ n: 0, mean_s: null, p50_s: null, p90_s: null, missing });

describe('buildResponseTimes', () => {
  const report = buildResponseTimes(FIXTURE_CALLS, FIXTURE_PERIOD, priorities);
  const [p1, p2, p3, p4] = report.priorities;

  it('figures each interval of priority 1 by nearest rank, leaving skipped steps out as missing', () => {
    expect(p1.calls).toBe(12);
    expect(p1.target_s).toBe(900);
    expect(p1.intervals).toEqual({
      // 20 (the reassigned call's first dispatch) … 110; the waiting call has none.
      call_processing: { n: 11, mean_s: 63.2, p50_s: 60, p90_s: 100, missing: 1 },
      // The skipped en route, and the waiting call, are missing, not zero.
      turnout: { n: 10, mean_s: 56, p50_s: 60, p90_s: 60, missing: 2 },
      travel: { n: 9, mean_s: 538.9, p50_s: 540, p90_s: 1030, missing: 3 },
      // 300 420 480 540 600 660 720 840 960 1200; the cancelled and the waiting call have none.
      response: { n: 10, mean_s: 672, p50_s: 600, p90_s: 960, missing: 2 },
      on_scene: { n: 9, mean_s: 926.7, p50_s: 940, p90_s: 1020, missing: 3 },
      transport: { n: 9, mean_s: 1200, p50_s: 1200, p90_s: 1200, missing: 3 },
      hospital_turnaround: { n: 9, mean_s: 1344.4, p50_s: 1400, p90_s: 1500, missing: 3 },
      task: { n: 10, mean_s: 3843, p50_s: 3930, p90_s: 4400, missing: 2 },
    });
    // 300 … 840 are within 15 minutes.
    expect(p1.response_within_target).toEqual({ n: 8, share: 0.8 });
  });

  it('figures priority 2, lists priorities without calls, and sums every call overall', () => {
    expect(p2).toMatchObject({
      priority: 2, calls: 4, target_s: 2400, response_within_target: { n: 3, share: 0.75 },
      intervals: {
        call_processing: { n: 4, mean_s: 60, p50_s: 60, p90_s: 60, missing: 0 },
        turnout: none(4), travel: none(4), on_scene: none(4), transport: none(4), hospital_turnaround: none(4),
        response: { n: 4, mean_s: 1425, p50_s: 900, p90_s: 3000, missing: 0 },
        task: { n: 4, mean_s: 1965, p50_s: 1440, p90_s: 3540, missing: 0 },
      },
    });
    for (const [p, priority] of [[p3, 3], [p4, 4]] as const) {
      expect(p.priority).toBe(priority);
      expect(p.calls).toBe(0);
      expect(Object.values(p.intervals)).toEqual(Array(8).fill(none(0)));
      expect(p.response_within_target).toEqual({ n: 0, share: null });
    }
    expect(report.overall.calls).toBe(16);
    expect(report.overall.intervals.response).toEqual({ n: 14, mean_s: 887.1, p50_s: 660, p90_s: 1200, missing: 2 });
    expect(report.overall.intervals.call_processing).toEqual({ n: 15, mean_s: 62.3, p50_s: 60, p90_s: 100, missing: 1 });
    expect(report.overall.response_within_target).toEqual({ n: 11, share: 0.7857 });
    expect(report).toMatchObject(FIXTURE_PERIOD);
  });

  it('counts each call on its local day: the previous UTC day and a call spanning midnight on the day it came in', () => {
    expect(report.daily).toEqual([
      { date: '2026-10-01', priority: 1, calls: 10, p90_s: 960 },
      { date: '2026-10-01', priority: 2, calls: 3, p90_s: 1200 },
      { date: '2026-10-02', priority: 1, calls: 2, p90_s: null },
      { date: '2026-10-02', priority: 2, calls: 1, p90_s: 3000 },
    ]);
  });
});

describe('the responding assignment', () => {
  const a = (dispatched: string, onScene: string | null) => ({
    dispatched_at: `2026-10-01T10:${dispatched}:00.000Z`, en_route_at: null, on_scene_at: onScene && `2026-10-01T10:${onScene}:00.000Z`,
    transporting_at: null, at_hospital_at: null, cleared_at: null,
  });

  it('is the first to reach the scene, else the latest dispatched', () => {
    const first = a('05', '20');
    const second = a('01', '25');
    expect(respondingAssignment([second, first])).toBe(first);
    const cancelled = a('01', null);
    const latest = a('03', null);
    expect(respondingAssignment([latest, cancelled])).toBe(latest);
    expect(respondingAssignment([])).toBeUndefined();
  });

  it('times call processing to the first dispatch and the rest from the responding assignment', () => {
    const out = callIntervals({ priority: 1, call_received_at: '2026-10-01T10:00:00.000Z', assignments: [a('03', null), a('01', null), a('04', '10')] });
    expect(out).toMatchObject({ call_processing: 60_000, response: 600_000, travel: null, task: null });
  });

  it('reads a negative interval (broken data) as missing, never as a time', () => {
    const out = callIntervals({ priority: 1, call_received_at: '2026-10-01T10:30:00.000Z', assignments: [a('05', '20')] });
    expect(out.call_processing).toBeNull();
    expect(out.response).toBeNull();
  });
});

describe('callGrouper', () => {
  it('turns consecutive rows of a case into one call, and a case without assignments into a call without any', () => {
    const calls: unknown[] = [];
    const g = callGrouper((c) => calls.push(c));
    const row = (case_id: string, dispatched_at: string | null) => ({
      case_id, priority: 2, call_received_at: '2026-10-01T10:00:00.000Z', dispatched_at, en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, cleared_at: null,
    });
    for (const r of [row('a', 'x1'), row('a', 'x2'), row('b', null), row('c', 'x3')]) g.push(r);
    g.end();
    expect(calls.map((c: any) => c.assignments.map((x: any) => x.dispatched_at))).toEqual([['x1', 'x2'], [], ['x3']]);
  });
});

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

  it('ends the period at now, and an open assignment with it', () => {
    const report = buildUtilisation([c(1, 'KA01 A 1', '08-01T11:00', null)], fleet, period, isoMs('2026-08-01T12:00:00.000Z'));
    expect(report.ambulances).toEqual([{ ambulance_id: 1, license_plate: 'KA01 A 1', committed_s: 3600, on_shift_s: 43_200, share: 0.0833 }]);
  });
});
