import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { nearestRank } from '../contract';
import type { ReportCallRow } from '../../db/repositories/reportRepository';
import { FIXTURE_CALLS, FIXTURE_PERIOD } from '../testing/reportFixture';
import { ResponseTimesTally, buildResponseTimes, callIntervals, intervalFigures } from './responseTimes';

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
  const a = (dispatched: string, onScene: string | null, cleared: string | null = null) => ({
    dispatched_at: `2026-10-01T10:${dispatched}:00.000Z`, en_route_at: null, on_scene_at: onScene && `2026-10-01T10:${onScene}:00.000Z`,
    transporting_at: null, at_hospital_at: null, cleared_at: cleared && `2026-10-01T10:${cleared}:00.000Z`,
  });
  const call = (...assignments: ReturnType<typeof a>[]) => callIntervals({ priority: 1, call_received_at: '2026-10-01T10:00:00.000Z', assignments });

  it('is the first to reach the scene, in whichever order the assignments come', () => {
    // Sent at :05, on scene at :20, cleared at :40, against one sent at :01 that arrived later, at :25.
    for (const out of [call(a('01', '25', '50'), a('05', '20', '40')), call(a('05', '20', '40'), a('01', '25', '50'))]) {
      expect(out).toMatchObject({ call_processing: 60_000, response: 1_200_000, task: 2_100_000 });
    }
  });

  it('is else the latest dispatched, and without any assignment every interval is missing', () => {
    expect(call(a('03', null, '30'), a('01', null, '09'))).toMatchObject({ call_processing: 60_000, response: null, task: 1_620_000 });
    expect(Object.values(call())).toEqual(Array(8).fill(null));
  });

  it('times call processing to the first dispatch and the rest from the responding assignment', () => {
    expect(call(a('03', null), a('01', null), a('04', '10'))).toMatchObject({ call_processing: 60_000, response: 600_000, travel: null, task: null });
  });

  it('reads a negative interval (broken data) as missing, never as a time', () => {
    const out = callIntervals({ priority: 1, call_received_at: '2026-10-01T10:30:00.000Z', assignments: [a('05', '20')] });
    expect(out.call_processing).toBeNull();
    expect(out.response).toBeNull();
  });
});

describe('the tally from repository rows', () => {
  it('counts consecutive rows of a case as one call, a case without assignments as a call without any: the same report as from the calls', () => {
    const tally = new ResponseTimesTally(FIXTURE_PERIOD, priorities);
    for (const c of FIXTURE_CALLS) {
      const head = [c.id, c.priority, c.call_received_at] as const;
      if (!c.assignments.length) tally.addRow([...head, null, null, null, null, null, null]);
      for (const x of c.assignments) tally.addRow([...head, x.dispatched_at, x.en_route_at, x.on_scene_at, x.transporting_at, x.at_hospital_at, x.cleared_at] satisfies ReportCallRow);
    }
    const fromCalls = buildResponseTimes(FIXTURE_CALLS, FIXTURE_PERIOD, priorities);
    expect(FIXTURE_CALLS.some((c) => c.assignments.length > 1) && FIXTURE_CALLS.some((c) => !c.assignments.length)).toBe(true);
    expect(tally.report()).toEqual(fromCalls);
  });
});

describe('intervalFigures', () => {
  it('selects the same nearest-rank percentiles a sort gives, ties and every small size included', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let n = 1; n <= 60; n++) {
      for (const spread of [3, 1000, 2 ** 31]) {
        const values = Array.from({ length: n }, () => next() % spread);
        const sorted = [...values].sort((x, y) => x - y);
        const f = intervalFigures(values, n + 2);
        expect([f.n, f.p50_s, f.p90_s, f.missing], `${n} values below ${spread}`).toEqual([n, nearestRank(sorted, 50)! / 1000, nearestRank(sorted, 90)! / 1000, 2]);
      }
    }
  });

  it('reads half a million values the same way', () => {
    const values = Float64Array.from({ length: 500_000 }, (_, i) => (i * 7919) % 500_003);
    const sorted = Float64Array.from(values).sort();
    expect(intervalFigures(values, 500_000)).toMatchObject({ p50_s: nearestRank(sorted, 50)! / 1000, p90_s: nearestRank(sorted, 90)! / 1000 });
  });
});
