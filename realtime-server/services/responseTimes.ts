import quickselect from 'quickselect';
import {
  type AssignmentDto, type ClockStop, type GroupReport, INTERVALS, INTERVAL_BOUNDS, type Interval, type IntervalFigures, PRIORITIES, type Priority,
  type PriorityClockStops, type PriorityInfo, type PriorityReport, type ReportPeriod, type ResponseTimesReport, canTransport, nearestRankIndex,
} from '../contract';
import type { ReportCallRow } from '../../db/repositories/reportRepository';
import { isoMs, zoneClock } from './reportTime';

/**
 * The response-times report (docs/user-guide.md "Reports: how the figures are made"): each call's intervals
 * from its call time and its assignments' step times, summed up per priority, overall and per
 * local day. A year is half a million calls, so a call is held as numbers in reused typed arrays,
 * never as objects, and percentiles are selected, not sorted for (measured for issue 17).
 */

/** An assignment's step times (stored ISO strings; null for a step not reached or skipped). */
export type AssignmentTimes = Pick<AssignmentDto, 'dispatched_at' | 'en_route_at' | 'on_scene_at' | 'transporting_at' | 'at_hospital_at' | 'cleared_at'>
  /** The unit's capability when dispatched (contract CAPABILITIES); without it `als`, the column's default. */
  & { capability?: string };

/** A call of the period: its priority, when it came in, and every assignment it had (none for a call never dispatched). */
export interface ReportCall {
  priority: number;
  call_received_at: string;
  assignments: AssignmentTimes[];
}

const STEPS = ['dispatched_at', 'en_route_at', 'on_scene_at', 'transporting_at', 'at_hospital_at', 'cleared_at'] as const;
const DISPATCHED = 0;
const ON_SCENE = 2;
const TRANSPORTING = 3;
/** The capability of an assignment stored before capabilities were recorded (the migration's default). */
const DEFAULT_CAPABILITY = 'als';

/**
 * Where each interval's ends are in a call's times: [call_received_at, the responding
 * assignment's six steps, the call's first dispatch, its first arrival, its first arrival of a
 * unit able to convey, the arrival that stops its response clock]. Call processing ends at the
 * FIRST dispatch.
 */
const RECEIVED = 0;
const FIRST_DISPATCH = 1 + STEPS.length;
const FIRST_ARRIVAL = FIRST_DISPATCH + 1;
const CONVEYOR_ARRIVAL = FIRST_DISPATCH + 2;
const CLOCK_STOPPED = FIRST_DISPATCH + 3;
const timeIndex = (field: string) => (field === 'call_received_at' ? RECEIVED : 1 + STEPS.indexOf(field as (typeof STEPS)[number]));
/** The intervals that end at a call-wide time rather than a step of the responding assignment. */
const CALL_ENDS: Partial<Record<Interval, number>> = {
  call_processing: FIRST_DISPATCH, response: CLOCK_STOPPED, first_response: FIRST_ARRIVAL, transport_response: CONVEYOR_ARRIVAL,
};
/** The unit that conveyed the patient's six steps (from its on scene to its clear), after the call-wide times. */
const CONVEYOR_STEPS = CLOCK_STOPPED + 1;
/**
 * The intervals of the patient's way to hospital are the conveying unit's (the first to start
 * transporting), not the first arrival's: a responder car first on scene never conveys, and
 * taking its times would leave every car-and-ambulance call without them.
 */
const CONVEYOR_INTERVALS: readonly Interval[] = ['on_scene', 'transport', 'hospital_turnaround'];
const BOUNDS = INTERVALS.map((i) => {
  const [from, to] = INTERVAL_BOUNDS[i];
  const shift = CONVEYOR_INTERVALS.includes(i) ? CONVEYOR_STEPS - 1 : 0;
  return [timeIndex(from) + shift, CALL_ENDS[i] ?? timeIndex(to) + shift] as const;
});
const RESPONSE = INTERVALS.indexOf('response');

/** A priority outside the configured ones (broken data, counted overall only) stops at the first arrival. */
const clockStopOf = (clockStops: PriorityClockStops, priority: number): ClockStop => clockStops[priority as Priority] ?? 'first';

/**
 * One call's times, its assignments offered one at a time (milliseconds, NaN for a step not
 * reached). The responding assignment is the first to reach the scene (by on scene), else the
 * latest dispatched (a call cancelled or still on its way). Besides, the call's first arrival of
 * any unit, its first arrival of a unit able to convey (capability not `responder`, contract
 * canTransport), and whether any of its units conveyed: a few numbers per call, whatever the
 * number of its units.
 */
class CallTimes {
  readonly times = new Float64Array(CONVEYOR_STEPS + STEPS.length);
  private readonly arrived = new Float64Array(STEPS.length);
  private readonly conveyor = new Float64Array(STEPS.length);
  private conveyorStarted = Infinity;
  private readonly latest = new Float64Array(STEPS.length);
  private arrivedOnScene = Infinity;
  private conveyorOnScene = Infinity;
  private conveyed = false;
  private latestDispatched = -Infinity;

  start(receivedMs: number) {
    this.times.fill(NaN);
    this.times[RECEIVED] = receivedMs;
    this.arrivedOnScene = Infinity;
    this.conveyorOnScene = Infinity;
    this.conveyorStarted = Infinity;
    this.conveyed = false;
    this.latestDispatched = -Infinity;
  }

  /** One assignment: its steps, and whether its unit (by its capability when dispatched) can convey. */
  offer(steps: Float64Array, conveys: boolean) {
    // NaN compares false: an assignment that never reached the scene is never the one that arrived.
    if (steps[ON_SCENE] < this.arrivedOnScene) {
      this.arrived.set(steps);
      this.arrivedOnScene = steps[ON_SCENE];
    }
    if (conveys && steps[ON_SCENE] < this.conveyorOnScene) this.conveyorOnScene = steps[ON_SCENE];
    if (!Number.isNaN(steps[TRANSPORTING])) this.conveyed = true;
    if (steps[TRANSPORTING] < this.conveyorStarted) {
      this.conveyor.set(steps);
      this.conveyorStarted = steps[TRANSPORTING];
    }
    if (steps[DISPATCHED] >= this.latestDispatched) {
      this.latest.set(steps);
      this.latestDispatched = steps[DISPATCHED];
    }
    if (!(steps[DISPATCHED] >= this.times[FIRST_DISPATCH])) this.times[FIRST_DISPATCH] = steps[DISPATCHED];
  }

  /**
   * Each interval in milliseconds into `out`, NaN when missing: either end not recorded, or
   * negative (the steps only move forward and corrections keep them in order, so a negative
   * interval would be broken data, left out rather than read as a time).
   *
   * The response clock stops as `clockStop` (the priority's PRIORITY_CLOCK_STOP) says: `first`, at
   * the first arrival of any unit (first_response); `transport`, at the first arrival of a unit
   * able to convey (transport_response), except that "a call nobody conveyed stops at the first
   * arrival". Nobody conveyed is read as: no assignment of the call has `transporting_at` (eTimes.09
   * to .11 never begun by any unit), whatever its units could do; such a call's clock stops at the
   * first arrival of any unit (a car that treated a patient the ambulance then left at home, or a
   * call still open with no one conveying yet). A call that was conveyed but has no recorded
   * arrival of a unit able to convey (on scene skipped) has its response missing, never another time.
   */
  intervals(out: Float64Array, clockStop: ClockStop) {
    if (this.latestDispatched > -Infinity) this.times.set(this.arrivedOnScene < Infinity ? this.arrived : this.latest, 1);
    if (this.arrivedOnScene < Infinity) this.times[FIRST_ARRIVAL] = this.arrivedOnScene;
    if (this.conveyorOnScene < Infinity) this.times[CONVEYOR_ARRIVAL] = this.conveyorOnScene;
    this.times[CLOCK_STOPPED] = this.times[clockStop === 'transport' && this.conveyed ? CONVEYOR_ARRIVAL : FIRST_ARRIVAL];
    // Nobody conveyed: the way-to-hospital intervals are the responding unit's (its on scene to its clear).
    this.times.set(this.conveyorStarted < Infinity ? this.conveyor : this.times.subarray(1, 1 + STEPS.length), CONVEYOR_STEPS);
    for (let i = 0; i < BOUNDS.length; i++) {
      const ms = this.times[BOUNDS[i][1]] - this.times[BOUNDS[i][0]];
      out[i] = ms >= 0 ? ms : NaN;
    }
  }

  /** Offers an assignment given as stored strings, reusing `scratch` for its times. */
  offerStored(a: AssignmentTimes, scratch: Float64Array) {
    for (let s = 0; s < STEPS.length; s++) {
      const v = a[STEPS[s]];
      scratch[s] = v == null ? NaN : isoMs(v);
    }
    this.offer(scratch, canTransport(a.capability ?? DEFAULT_CAPABILITY));
  }
}

/** Each interval of one call in milliseconds, null when missing (see CallTimes.intervals), its response stopped as `clockStops` says for its priority. */
export function callIntervals(call: ReportCall, clockStops: PriorityClockStops): Record<Interval, number | null> {
  const times = new CallTimes();
  times.start(isoMs(call.call_received_at));
  const scratch = new Float64Array(STEPS.length);
  for (const a of call.assignments) times.offerStored(a, scratch);
  const out = new Float64Array(INTERVALS.length);
  times.intervals(out, clockStopOf(clockStops, call.priority));
  return Object.fromEntries(INTERVALS.map((interval, i) => [interval, Number.isNaN(out[i]) ? null : out[i]])) as Record<Interval, number | null>;
}

/** A growing list of numbers in one typed array (the reports' groups hold their times so). */
export class Column {
  private values: Float64Array;
  length = 0;

  constructor(initial = 256) {
    this.values = new Float64Array(initial);
  }

  push(v: number) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = v;
  }

  view(): Float64Array {
    return this.values.subarray(0, this.length);
  }
}

const round1 = (v: number) => Math.round(v * 10) / 10;
/** part ÷ whole to 4 decimals; null without a whole. */
export const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/**
 * One interval's figures from its values in milliseconds (in any order; a typed array is
 * reordered in place) and the group's number of calls. The nearest-rank percentiles are found
 * by selection (Floyd–Rivest, the quickselect library) in linear time: the value a sort would
 * put at that rank, without sorting half a million values.
 */
export function intervalFigures(valuesMs: Float64Array | readonly number[], calls: number): IntervalFigures {
  const n = valuesMs.length;
  if (!n) return { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: calls };
  const values = valuesMs instanceof Float64Array ? valuesMs : Float64Array.from(valuesMs);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const k50 = nearestRankIndex(n, 50);
  const k90 = nearestRankIndex(n, 90);
  // The library's types say T[]; it only indexes and swaps, which a typed array does as well.
  const select = quickselect as unknown as (arr: Float64Array, k: number, left?: number) => void;
  select(values, k50);
  // Everything after k50 is now at least values[k50]: the 90th is among it.
  if (k90 > k50) select(values, k90, k50 + 1);
  return { n, mean_s: round1(sum / n / 1000), p50_s: values[k50] / 1000, p90_s: values[k90] / 1000, missing: calls - n };
}

/** A group's calls: how many, how many arrived within target, and each interval's values. */
class GroupTally {
  calls = 0;
  within = 0;
  readonly columns = INTERVALS.map(() => new Column());

  add(intervals: Float64Array, targetMs: number | undefined) {
    this.calls++;
    for (let i = 0; i < intervals.length; i++) if (!Number.isNaN(intervals[i])) this.columns[i].push(intervals[i]);
    if (targetMs !== undefined && intervals[RESPONSE] <= targetMs) this.within++;
  }
}

/** The figures of groups taken together (the overall ones are the priorities' and any other calls'). */
function groupReport(groups: readonly GroupTally[]): GroupReport {
  const calls = groups.reduce((s, g) => s + g.calls, 0);
  const within = groups.reduce((s, g) => s + g.within, 0);
  const intervals = Object.fromEntries(INTERVALS.map((interval, i) => {
    const parts = groups.map((g) => g.columns[i].view());
    let values = parts[0];
    if (parts.length > 1) {
      values = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
      let at = 0;
      for (const p of parts) values.set(p, (at += p.length) - p.length);
    }
    return [interval, intervalFigures(values, calls)];
  })) as Record<Interval, IntervalFigures>;
  return { calls, intervals, response_within_target: { n: within, share: share(within, intervals.response.n) } };
}

/** The response-times report, a call at a time (each call once, in any order). */
export class ResponseTimesTally {
  private readonly targetMs = new Map<number, number>();
  private readonly byPriority = new Map<number, GroupTally>(PRIORITIES.map((p) => [p, new GroupTally()]));
  /** Calls of a priority outside the configured ones: counted overall only. */
  private readonly other = new GroupTally();
  private readonly days = new Map<number, { day: number; priority: Priority; calls: number; responses: Column }>();
  private readonly clock: ReturnType<typeof zoneClock>;
  private readonly call = new CallTimes();
  private readonly steps = new Float64Array(STEPS.length);
  private readonly intervals = new Float64Array(INTERVALS.length);
  /** The case whose rows addRow is reading, and its priority. */
  private caseId: string | undefined;
  private priority = 0;

  constructor(private readonly period: ReportPeriod, private readonly priorities: readonly PriorityInfo[], private readonly clockStops: PriorityClockStops) {
    for (const p of priorities) this.targetMs.set(p.priority, p.target_s * 1000);
    this.clock = zoneClock(period.tz);
  }

  /** One call given as stored strings. */
  add(call: ReportCall) {
    this.call.start(isoMs(call.call_received_at));
    for (const a of call.assignments) this.call.offerStored(a, this.steps);
    this.count(call.priority);
  }

  /**
   * One row of reportRepository.eachCallRow: a case's rows come one after another, so a call
   * is counted when the next case's first row comes, or at `endRows`.
   */
  addRow(r: ReportCallRow) {
    if (r[0] !== this.caseId) {
      this.endRows();
      this.caseId = r[0];
      this.priority = r[1];
      this.call.start(isoMs(r[2]));
    }
    if (r[3] == null) return;
    for (let s = 0; s < STEPS.length; s++) {
      const v = r[3 + s] as string | null;
      this.steps[s] = v == null ? NaN : isoMs(v);
    }
    this.call.offer(this.steps, canTransport(r[9] ?? DEFAULT_CAPABILITY));
  }

  endRows() {
    if (this.caseId !== undefined) this.count(this.priority);
    this.caseId = undefined;
  }

  private count(priority: number) {
    const intervals = this.intervals;
    this.call.intervals(intervals, clockStopOf(this.clockStops, priority));
    const target = this.targetMs.get(priority);
    const group = this.byPriority.get(priority);
    if (!group) {
      this.other.add(intervals, target);
      return;
    }
    group.add(intervals, target);
    const { day } = this.clock.slot(this.call.times[RECEIVED]);
    const key = day * 8 + priority;
    let d = this.days.get(key);
    if (!d) this.days.set(key, (d = { day, priority: priority as Priority, calls: 0, responses: new Column() }));
    d.calls++;
    if (!Number.isNaN(intervals[RESPONSE])) d.responses.push(intervals[RESPONSE]);
  }

  report(): ResponseTimesReport {
    this.endRows();
    const daily = [...this.days.values()]
      .sort((a, b) => a.day - b.day || a.priority - b.priority)
      .map((d) => ({ date: this.clock.date(d.day), priority: d.priority, calls: d.calls, p90_s: intervalFigures(d.responses.view(), d.calls).p90_s }));
    return {
      from: this.period.from, to: this.period.to, tz: this.period.tz,
      overall: groupReport([...this.byPriority.values(), this.other]),
      priorities: PRIORITIES.map((priority): PriorityReport => ({
        priority, target_s: this.priorities.find((p) => p.priority === priority)!.target_s, clock_stop: this.clockStops[priority],
        ...groupReport([this.byPriority.get(priority)!]),
      })),
      daily,
    };
  }
}

/** The response-times report of a period's calls (each call once, in any order). */
export function buildResponseTimes(
  calls: Iterable<ReportCall>, period: ReportPeriod, priorities: readonly PriorityInfo[], clockStops: PriorityClockStops,
): ResponseTimesReport {
  const tally = new ResponseTimesTally(period, priorities, clockStops);
  for (const call of calls) tally.add(call);
  return tally.report();
}
