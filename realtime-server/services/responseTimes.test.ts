import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { nearestRank } from '../contract';
import type { ReportCallRow } from '../../db/repositories/reportRepository';
import { FIXTURE_CALLS, FIXTURE_PERIOD, MULTI_UNIT_CALLS, MULTI_UNIT_PERIOD } from '../testing/reportFixture';
import { ResponseTimesTally, buildResponseTimes, callIntervals, intervalFigures } from './responseTimes';

/**
 * The report figures from hand-made calls whose percentiles are known (testing/reportFixture.ts):
 * nearest rank, so p50 of ten values is the 5th, p90 the 9th; of fourteen, the 7th and the 13th.
 */
const { priorities, clockStops } = loadConfig({});
const none = (missing: number) => ({ n: 0, mean_s: null, p50_s: null, p90_s: null, missing });
/** One interval's figures in seconds. */
const fig = (n: number, mean_s: number, p50_s: number, p90_s: number, missing = 0) => ({ n, mean_s, p50_s, p90_s, missing });

describe('buildResponseTimes', () => {
  const report = buildResponseTimes(FIXTURE_CALLS, FIXTURE_PERIOD, priorities, clockStops);
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
      // One unit per call, each an ALS ambulance (the capability's default): the same arrival.
      first_response: { n: 10, mean_s: 672, p50_s: 600, p90_s: 960, missing: 2 },
      transport_response: { n: 10, mean_s: 672, p50_s: 600, p90_s: 960, missing: 2 },
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
        first_response: { n: 4, mean_s: 1425, p50_s: 900, p90_s: 3000, missing: 0 },
        transport_response: { n: 4, mean_s: 1425, p50_s: 900, p90_s: 3000, missing: 0 },
        task: { n: 4, mean_s: 1965, p50_s: 1440, p90_s: 3540, missing: 0 },
      },
    });
    for (const [p, priority] of [[p3, 3], [p4, 4]] as const) {
      expect(p.priority).toBe(priority);
      expect(p.calls).toBe(0);
      expect(Object.values(p.intervals)).toEqual(Array(10).fill(none(0)));
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
  const call = (...assignments: ReturnType<typeof a>[]) => callIntervals({ priority: 1, call_received_at: '2026-10-01T10:00:00.000Z', assignments }, clockStops);

  it('is the first to reach the scene, in whichever order the assignments come', () => {
    // Sent at :05, on scene at :20, cleared at :40, against one sent at :01 that arrived later, at :25.
    for (const out of [call(a('01', '25', '50'), a('05', '20', '40')), call(a('05', '20', '40'), a('01', '25', '50'))]) {
      expect(out).toMatchObject({ call_processing: 60_000, response: 1_200_000, task: 2_100_000 });
    }
  });

  it('is else the latest dispatched, and without any assignment every interval is missing', () => {
    expect(call(a('03', null, '30'), a('01', null, '09'))).toMatchObject({ call_processing: 60_000, response: null, task: 1_620_000 });
    expect(Object.values(call())).toEqual(Array(10).fill(null));
  });

  it('times call processing to the first dispatch and the rest from the responding assignment', () => {
    expect(call(a('03', null), a('01', null), a('04', '10'))).toMatchObject({ call_processing: 60_000, response: 600_000, travel: null, task: null });
  });

  it('reads a negative interval (broken data) as missing, never as a time', () => {
    const out = callIntervals({ priority: 1, call_received_at: '2026-10-01T10:30:00.000Z', assignments: [a('05', '20')] }, clockStops);
    expect(out.call_processing).toBeNull();
    expect(out.response).toBeNull();
  });
});

describe('the tally from repository rows', () => {
  const rowsOf = (tally: ResponseTimesTally, calls: typeof FIXTURE_CALLS) => {
    for (const c of calls) {
      const head = [c.id, c.priority, c.call_received_at] as const;
      if (!c.assignments.length) tally.addRow([...head, null, null, null, null, null, null, null]);
      for (const x of c.assignments) {
        tally.addRow([...head, x.dispatched_at, x.en_route_at, x.on_scene_at, x.transporting_at, x.at_hospital_at, x.cleared_at, x.capability ?? 'als'] satisfies ReportCallRow);
      }
    }
    return tally.report();
  };

  it('counts consecutive rows of a case as one call, a case without assignments as a call without any: the same report as from the calls', () => {
    const fromCalls = buildResponseTimes(FIXTURE_CALLS, FIXTURE_PERIOD, priorities, clockStops);
    expect(FIXTURE_CALLS.some((c) => c.assignments.length > 1) && FIXTURE_CALLS.some((c) => !c.assignments.length)).toBe(true);
    expect(rowsOf(new ResponseTimesTally(FIXTURE_PERIOD, priorities, clockStops), FIXTURE_CALLS)).toEqual(fromCalls);
  });

  it('reads each row\'s capability: several units of a call give the same report as from the calls, in either order', () => {
    const fromCalls = buildResponseTimes(MULTI_UNIT_CALLS, MULTI_UNIT_PERIOD, priorities, clockStops);
    expect(rowsOf(new ResponseTimesTally(MULTI_UNIT_PERIOD, priorities, clockStops), MULTI_UNIT_CALLS)).toEqual(fromCalls);
    const reversed = MULTI_UNIT_CALLS.map((c) => ({ ...c, assignments: [...c.assignments].reverse() }));
    expect(rowsOf(new ResponseTimesTally(MULTI_UNIT_PERIOD, priorities, clockStops), reversed)).toEqual(fromCalls);
    // A null capability (never written: the column has a default) is read as that default, ALS.
    const tally = new ResponseTimesTally(MULTI_UNIT_PERIOD, priorities, clockStops);
    tally.addRow(['x', 2, '2026-10-05T00:00:00.000Z', '2026-10-05T00:01:00.000Z', null, '2026-10-05T00:10:00.000Z', null, null, null, null]);
    expect(tally.report().priorities[1].intervals.transport_response).toEqual(fig(1, 600, 600, 600));
  });
});

/**
 * Several units on one call (issue 29), the three calls of testing/reportFixture.ts MULTI_UNIT_CALLS:
 * (a) P1, a responder car on scene at 300 s then an ALS ambulance at 600 s that conveys;
 * (b) P2, an ALS ambulance alone on scene at 900 s that conveys;
 * (c) P2, a car on scene at 420 s and a BLS ambulance at 1500 s, neither conveying.
 */
describe('several units on a call: first on scene, able to convey on scene, and the clock stop', () => {
  const [a, b, c] = MULTI_UNIT_CALLS;
  const s = (seconds: number) => seconds * 1000;

  it('times each call\'s first arrival, first arrival able to convey, and its response by its priority\'s clock stop', () => {
    // (a) P1 stops at the first arrival: the car.
    expect(callIntervals(a, clockStops)).toMatchObject({ first_response: s(300), transport_response: s(600), response: s(300) });
    // (b) the ambulance is both.
    expect(callIntervals(b, clockStops)).toMatchObject({ first_response: s(900), transport_response: s(900), response: s(900) });
    // (c) P2 stops at transport, but nobody conveyed: at the first arrival, the car.
    expect(callIntervals(c, clockStops)).toMatchObject({ first_response: s(420), transport_response: s(1500), response: s(420) });
  });

  it('stops a transport priority\'s clock at the unit able to convey once one of the call\'s units conveyed', () => {
    // (a) as a P2 call: the ALS ambulance conveyed, so the car's arrival does not stop the clock.
    expect(callIntervals({ ...a, priority: 2 }, clockStops)).toMatchObject({ first_response: s(300), transport_response: s(600), response: s(600) });
    // PRIORITY_CLOCK_STOP=1=transport,…: the same for P1.
    const allTransport = loadConfig({ PRIORITY_CLOCK_STOP: '1=transport,2=transport,3=transport,4=transport' }).clockStops;
    expect(callIntervals(a, allTransport).response).toBe(s(600));
    // And 2=first: (c) and (a) as P2 stop at the car.
    const allFirst = loadConfig({ PRIORITY_CLOCK_STOP: '1=first,2=first,3=first,4=first' }).clockStops;
    expect(callIntervals({ ...a, priority: 2 }, allFirst).response).toBe(s(300));
  });

  it('leaves out what is not there: a car alone has no arrival able to convey; a conveyed call without its conveyor\'s arrival has no response', () => {
    const carOnly = { ...c, assignments: [c.assignments[0]] };
    expect(callIntervals(carOnly, clockStops)).toMatchObject({ first_response: s(420), transport_response: null, response: s(420) });
    // The ambulance conveyed but its on scene was skipped: the response is missing, never the car's arrival.
    const skipped = { ...a, priority: 2, assignments: [a.assignments[0], { ...a.assignments[1], on_scene_at: null }] };
    expect(callIntervals(skipped, clockStops)).toMatchObject({ first_response: s(300), transport_response: null, response: null });
    // A car stood down on its way (dispatched 30 s after the call, never on scene) never arrives: the ambulance's arrival counts.
    const after = (sec: number) => new Date(Date.parse(b.call_received_at) + sec * 1000).toISOString();
    const car = { capability: 'responder', dispatched_at: after(30), en_route_at: after(40), on_scene_at: null, transporting_at: null, at_hospital_at: null, cleared_at: null };
    const stoodDown = { ...b, assignments: [car, ...b.assignments] };
    expect(callIntervals(stoodDown, clockStops)).toMatchObject({ first_response: s(900), transport_response: s(900), response: s(900), call_processing: s(30) });
  });

  it('figures both intervals per priority and overall, exactly, beside the response and its share within target', () => {
    const report = buildResponseTimes(MULTI_UNIT_CALLS, MULTI_UNIT_PERIOD, priorities, clockStops);
    const [p1, p2, p3, p4] = report.priorities;
    expect(p1).toEqual({
      priority: 1, target_s: 900, clock_stop: 'first', calls: 1,
      intervals: {
        call_processing: fig(1, 30, 30, 30),
        // The responding assignment is the first on scene, the car: its own steps to the scene.
        turnout: fig(1, 15, 15, 15),
        travel: fig(1, 255, 255, 255),
        response: fig(1, 300, 300, 300),
        first_response: fig(1, 300, 300, 300),
        transport_response: fig(1, 600, 600, 600),
        // The patient's way to hospital is the ambulance's that conveyed: on scene 600 → 1500 → 2400 → clear 3600.
        on_scene: fig(1, 900, 900, 900), transport: fig(1, 900, 900, 900), hospital_turnaround: fig(1, 1200, 1200, 1200),
        task: fig(1, 1770, 1770, 1770),
      },
      response_within_target: { n: 1, share: 1 },
    });
    // Of two, nearest rank: p50 the 1st, p90 the 2nd.
    expect(p2).toEqual({
      priority: 2, target_s: 2400, clock_stop: 'transport', calls: 2,
      intervals: {
        call_processing: fig(2, 45, 30, 60),
        turnout: fig(2, 45, 30, 60),
        travel: fig(2, 570, 360, 780),
        // (b) 900 at its ambulance, (c) 420 at the car: nobody conveyed.
        response: fig(2, 660, 420, 900),
        first_response: fig(2, 660, 420, 900),
        transport_response: fig(2, 1200, 900, 1500),
        on_scene: fig(1, 900, 900, 900, 1), transport: fig(1, 900, 900, 900, 1), hospital_turnaround: fig(1, 900, 900, 900, 1),
        task: fig(2, 2955, 2370, 3540),
      },
      response_within_target: { n: 2, share: 1 },
    });
    expect([p3.clock_stop, p3.calls, p4.clock_stop, p4.calls]).toEqual(['transport', 0, 'transport', 0]);
    expect(p3.intervals.first_response).toEqual(none(0));
    expect(report.overall).toMatchObject({
      calls: 3,
      intervals: {
        response: fig(3, 540, 420, 900),
        first_response: fig(3, 540, 420, 900),
        transport_response: fig(3, 1000, 900, 1500),
      },
      response_within_target: { n: 3, share: 1 },
    });
    expect(report.daily).toEqual([
      { date: '2026-10-05', priority: 1, calls: 1, p90_s: 300 },
      { date: '2026-10-05', priority: 2, calls: 2, p90_s: 900 },
    ]);
  });

  it('judges within target by the arrival that stops the clock: (a) with P1 stopped at transport misses a 9-minute target', () => {
    const tight = priorities.map((p) => (p.priority === 1 ? { ...p, target_s: 540 } : p));
    const first = buildResponseTimes([a], MULTI_UNIT_PERIOD, tight, clockStops).priorities[0];
    const transport = buildResponseTimes([a], MULTI_UNIT_PERIOD, tight, { ...clockStops, 1: 'transport' }).priorities[0];
    expect([first.clock_stop, first.intervals.response.p90_s, first.response_within_target]).toEqual(['first', 300, { n: 1, share: 1 }]);
    expect([transport.clock_stop, transport.intervals.response.p90_s, transport.response_within_target]).toEqual(['transport', 600, { n: 0, share: 0 }]);
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
