import quickselect from 'quickselect';
import {
  type AssignmentDto, type GroupReport, INTERVALS, INTERVAL_BOUNDS, type Interval, type IntervalFigures, PRIORITIES, type Priority,
  type PriorityInfo, type PriorityReport, type ReportPeriod, type ResponseTimesReport, nearestRankIndex,
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
export type AssignmentTimes = Pick<AssignmentDto, 'dispatched_at' | 'en_route_at' | 'on_scene_at' | 'transporting_at' | 'at_hospital_at' | 'cleared_at'>;

/** A call of the period: its priority, when it came in, and every assignment it had (none for a call never dispatched). */
export interface ReportCall {
  priority: number;
  call_received_at: string;
  assignments: AssignmentTimes[];
}

const STEPS = ['dispatched_at', 'en_route_at', 'on_scene_at', 'transporting_at', 'at_hospital_at', 'cleared_at'] as const;
const DISPATCHED = 0;
const ON_SCENE = 2;

/**
 * Where each interval's ends are in a call's times: [call_received_at, the responding
 * assignment's six steps, the call's first dispatch]. Call processing ends at the FIRST dispatch.
 */
const RECEIVED = 0;
const FIRST_DISPATCH = 1 + STEPS.length;
const timeIndex = (field: string) => (field === 'call_received_at' ? RECEIVED : 1 + STEPS.indexOf(field as (typeof STEPS)[number]));
const BOUNDS = INTERVALS.map((i) => {
  const [from, to] = INTERVAL_BOUNDS[i];
  return [timeIndex(from), i === 'call_processing' ? FIRST_DISPATCH : timeIndex(to)] as const;
});
const RESPONSE = INTERVALS.indexOf('response');

/**
 * One call's times, its assignments offered one at a time (milliseconds, NaN for a step not
 * reached). The responding assignment is the first to reach the scene (by on scene), else the
 * latest dispatched (a call cancelled or still on its way).
 */
class CallTimes {
  readonly times = new Float64Array(FIRST_DISPATCH + 1);
  private readonly arrived = new Float64Array(STEPS.length);
  private readonly latest = new Float64Array(STEPS.length);
  private arrivedOnScene = Infinity;
  private latestDispatched = -Infinity;

  start(receivedMs: number) {
    this.times.fill(NaN);
    this.times[RECEIVED] = receivedMs;
    this.arrivedOnScene = Infinity;
    this.latestDispatched = -Infinity;
  }

  offer(steps: Float64Array) {
    // NaN compares false: an assignment that never reached the scene is never the one that arrived.
    if (steps[ON_SCENE] < this.arrivedOnScene) {
      this.arrived.set(steps);
      this.arrivedOnScene = steps[ON_SCENE];
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
   */
  intervals(out: Float64Array) {
    if (this.latestDispatched > -Infinity) this.times.set(this.arrivedOnScene < Infinity ? this.arrived : this.latest, 1);
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
    this.offer(scratch);
  }
}

/** Each interval of one call in milliseconds, null when missing (see CallTimes.intervals). */
export function callIntervals(call: ReportCall): Record<Interval, number | null> {
  const times = new CallTimes();
  times.start(isoMs(call.call_received_at));
  const scratch = new Float64Array(STEPS.length);
  for (const a of call.assignments) times.offerStored(a, scratch);
  const out = new Float64Array(INTERVALS.length);
  times.intervals(out);
  return Object.fromEntries(INTERVALS.map((interval, i) => [interval, Number.isNaN(out[i]) ? null : out[i]])) as Record<Interval, number | null>;
}

/** A growing list of numbers in one typed array. */
class Column {
  private values = new Float64Array(256);
  length = 0;

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

  constructor(private readonly period: ReportPeriod, private readonly priorities: readonly PriorityInfo[]) {
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
    this.call.offer(this.steps);
  }

  endRows() {
    if (this.caseId !== undefined) this.count(this.priority);
    this.caseId = undefined;
  }

  private count(priority: number) {
    const intervals = this.intervals;
    this.call.intervals(intervals);
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
        priority, target_s: this.priorities.find((p) => p.priority === priority)!.target_s, ...groupReport([this.byPriority.get(priority)!]),
      })),
      daily,
    };
  }
}

/** The response-times report of a period's calls (each call once, in any order). */
export function buildResponseTimes(calls: Iterable<ReportCall>, period: ReportPeriod, priorities: readonly PriorityInfo[]): ResponseTimesReport {
  const tally = new ResponseTimesTally(period, priorities);
  for (const call of calls) tally.add(call);
  return tally.report();
}
