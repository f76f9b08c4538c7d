import {
  type DemandReport, type GroupReport, INTERVALS, INTERVAL_BOUNDS, type Interval, type IntervalFigures, PRIORITIES, type Priority,
  type PriorityInfo, type PriorityReport, type ReportPeriod, type ResponseTimesReport, type UtilisationReport, nearestRank,
} from '../contract';
import { type CommitmentRow, type FleetRow, type ReportCallRow, reportRepository } from '../../db/repositories/reportRepository';
import type { ServiceContext } from './context';
import { isoMs, zoneClock } from './reportTime';

/**
 * The report figures (README "Reports: how the figures are made"): pure functions over a
 * period's calls and assignments, and the service functions that read them.
 */

/** An assignment's step times (stored ISO strings; null for a step not reached or skipped). */
export type AssignmentTimes = Pick<ReportCallRow, 'en_route_at' | 'on_scene_at' | 'transporting_at' | 'at_hospital_at' | 'cleared_at'> & { dispatched_at: string };

/** A call of the period: its priority, when it came in, and every assignment it had (none for a call never dispatched). */
export interface ReportCall {
  priority: number;
  call_received_at: string;
  assignments: AssignmentTimes[];
}

type TimeField = 'call_received_at' | keyof AssignmentTimes;

const round1 = (v: number) => Math.round(v * 10) / 10;
const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/**
 * The assignment whose times stand for the call: the first to reach the scene (by on_scene_at),
 * else the latest dispatched (a call cancelled or still on its way). Undefined without any.
 */
export function respondingAssignment(assignments: readonly AssignmentTimes[]): AssignmentTimes | undefined {
  if (assignments.length < 2) return assignments[0];
  let arrived: AssignmentTimes | undefined;
  let arrivedMs = Infinity;
  let latest: AssignmentTimes | undefined;
  let latestMs = -Infinity;
  for (const a of assignments) {
    const onScene = a.on_scene_at == null ? Infinity : isoMs(a.on_scene_at);
    if (onScene < arrivedMs) [arrived, arrivedMs] = [a, onScene];
    const dispatched = isoMs(a.dispatched_at);
    if (dispatched >= latestMs) [latest, latestMs] = [a, dispatched];
  }
  return arrived ?? latest;
}

const STEPS = ['dispatched_at', 'en_route_at', 'on_scene_at', 'transporting_at', 'at_hospital_at', 'cleared_at'] as const;
const BOUNDS = INTERVALS.map((i) => [i, ...INTERVAL_BOUNDS[i]] as [Interval, TimeField, TimeField]);

/**
 * Each interval of a call in milliseconds, null when missing: either end not recorded, or
 * negative (the steps only move forward and corrections keep them in order, so a negative
 * interval would be broken data, left out rather than read as a time). Call processing ends at
 * the call's FIRST dispatch; every other interval is read from the responding assignment.
 */
export function callIntervals(call: ReportCall): Record<Interval, number | null> {
  const responding = respondingAssignment(call.assignments);
  const times = { call_received_at: isoMs(call.call_received_at) } as Record<TimeField, number>;
  for (const f of STEPS) {
    const v = responding?.[f];
    times[f] = v == null ? NaN : isoMs(v);
  }
  let firstDispatch = NaN;
  for (const a of call.assignments) {
    const ms = isoMs(a.dispatched_at);
    if (!(ms >= firstDispatch)) firstDispatch = ms;
  }
  const out = {} as Record<Interval, number | null>;
  for (const [interval, from, to] of BOUNDS) {
    const end = interval === 'call_processing' ? firstDispatch : times[to];
    const ms = end - times[from];
    out[interval] = ms >= 0 ? ms : null;
  }
  return out;
}

/** One interval's figures from its values in milliseconds (in any order) and the group's number of calls. */
export function intervalFigures(valuesMs: number[], calls: number): IntervalFigures {
  const n = valuesMs.length;
  if (!n) return { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: calls };
  // A typed array sorts numerically in native code: a year's half a million values in a fraction of a comparator sort's time.
  const sorted = Float64Array.from(valuesMs).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n,
    mean_s: round1(sum / n / 1000),
    p50_s: nearestRank(sorted, 50)! / 1000,
    p90_s: nearestRank(sorted, 90)! / 1000,
    missing: calls - n,
  };
}

class GroupTally {
  calls = 0;
  within = 0;
  readonly values = Object.fromEntries(INTERVALS.map((i) => [i, [] as number[]])) as Record<Interval, number[]>;

  add(intervals: Record<Interval, number | null>, targetMs: number | undefined) {
    this.calls++;
    for (const i of INTERVALS) {
      const v = intervals[i];
      if (v != null) this.values[i].push(v);
    }
    if (intervals.response != null && targetMs !== undefined && intervals.response <= targetMs) this.within++;
  }

  report(): GroupReport {
    const intervals = Object.fromEntries(INTERVALS.map((i) => [i, intervalFigures(this.values[i], this.calls)])) as Record<Interval, IntervalFigures>;
    return { calls: this.calls, intervals, response_within_target: { n: this.within, share: share(this.within, intervals.response.n) } };
  }
}

/** The response-times report, a call at a time (each call once, in any order). */
export class ResponseTimesTally {
  private readonly targetMs: Map<number, number>;
  private readonly overall = new GroupTally();
  private readonly byPriority = new Map(PRIORITIES.map((p) => [p as number, new GroupTally()]));
  private readonly days = new Map<string, { day: number; priority: Priority; calls: number; responses: number[] }>();
  private readonly clock: ReturnType<typeof zoneClock>;

  constructor(private readonly period: ReportPeriod, private readonly priorities: readonly PriorityInfo[]) {
    this.targetMs = new Map(priorities.map((p) => [p.priority as number, p.target_s * 1000]));
    this.clock = zoneClock(period.tz);
  }

  add(call: ReportCall) {
    const intervals = callIntervals(call);
    const target = this.targetMs.get(call.priority);
    this.overall.add(intervals, target);
    const group = this.byPriority.get(call.priority);
    if (!group) return;
    group.add(intervals, target);
    const { day } = this.clock.slot(isoMs(call.call_received_at));
    const key = `${day}:${call.priority}`;
    let d = this.days.get(key);
    if (!d) this.days.set(key, (d = { day, priority: call.priority as Priority, calls: 0, responses: [] }));
    d.calls++;
    if (intervals.response != null) d.responses.push(intervals.response);
  }

  report(): ResponseTimesReport {
    const daily = [...this.days.values()]
      .sort((a, b) => a.day - b.day || a.priority - b.priority)
      .map((d) => ({ date: this.clock.date(d.day), priority: d.priority, calls: d.calls, p90_s: intervalFigures(d.responses, d.calls).p90_s }));
    return {
      from: this.period.from, to: this.period.to, tz: this.period.tz,
      overall: this.overall.report(),
      priorities: PRIORITIES.map((priority): PriorityReport => ({
        priority, target_s: this.priorities.find((p) => p.priority === priority)!.target_s, ...this.byPriority.get(priority)!.report(),
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

/**
 * Rows of calls and their assignments, a case's rows one after another (reportRepository.eachCallRow),
 * turned into one call each: `push` every row, then `end`.
 */
export function callGrouper(onCall: (call: ReportCall) => void) {
  let caseId: string | undefined;
  let call: ReportCall | undefined;
  return {
    push: (r: ReportCallRow) => {
      if (r.case_id !== caseId) {
        if (call) onCall(call);
        caseId = r.case_id;
        call = { priority: r.priority, call_received_at: r.call_received_at, assignments: [] };
      }
      if (r.dispatched_at != null) call!.assignments.push(r as AssignmentTimes);
    },
    end: () => {
      if (call) onCall(call);
      call = undefined;
      caseId = undefined;
    },
  };
}

/** Calls by local hour of week: counts[weekday, Monday 0][hour 0–23]. */
export function demandTally(period: ReportPeriod) {
  const counts = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const clock = zoneClock(period.tz);
  return {
    add: (callReceivedAt: string) => {
      const { weekday, hour } = clock.slot(isoMs(callReceivedAt));
      counts[weekday][hour]++;
    },
    report: (): DemandReport => ({ from: period.from, to: period.to, tz: period.tz, counts }),
  };
}

export function buildDemand(callTimes: Iterable<string>, period: ReportPeriod): DemandReport {
  const tally = demandTally(period);
  for (const t of callTimes) tally.add(t);
  return tally.report();
}

/**
 * Unit hour utilisation: per ambulance, the time its assignments held it (dispatch to cleared or
 * cancelled, or now while open) within the period, over its time on shift in the period. There
 * is no shift roster: an ambulance is on shift around the clock from when it was added until now.
 * A deleted ambulance's assignments keep its plate and are grouped by it; since when it existed
 * is not kept, it counts on shift from the period's start to the end of its last assignment in it.
 */
export function utilisationTally(fleet: readonly FleetRow[], period: Pick<ReportPeriod, 'from' | 'to'>, nowMs: number) {
  const from = isoMs(period.from);
  const until = Math.min(isoMs(period.to), nowMs);
  const clip = (start: number, end: number) => Math.max(0, Math.min(end, until) - Math.max(start, from));

  const units = new Map<string, Unit>();
  for (const a of fleet) units.set(`id:${a.id}`, { ambulance_id: a.id, license_plate: a.license_plate, committedMs: 0, onShiftMs: clip(isoMs(a.created_at), nowMs) });
  const add = (c: CommitmentRow) => {
    const known = c.ambulance_id != null && units.has(`id:${c.ambulance_id}`);
    const key = known ? `id:${c.ambulance_id}` : `plate:${c.license_plate}`;
    let u = units.get(key);
    if (!u) units.set(key, (u = { ambulance_id: null, license_plate: c.license_plate, committedMs: 0, onShiftMs: 0, lastEnd: from }));
    const end = c.ended_at == null ? nowMs : isoMs(c.ended_at);
    u.committedMs += clip(isoMs(c.dispatched_at), end);
    if (u.lastEnd !== undefined) u.lastEnd = Math.max(u.lastEnd, Math.min(end, until));
  };
  return { add, report: (): UtilisationReport => utilisationReport([...units.values()], period, from) };
}

type Unit = { ambulance_id: number | null; license_plate: string; committedMs: number; onShiftMs: number; lastEnd?: number };

/** A deleted ambulance's time on shift ends with its last assignment in the period (see utilisationTally). */
function utilisationReport(units: Unit[], period: Pick<ReportPeriod, 'from' | 'to'>, from: number): UtilisationReport {
  const seconds = (ms: number) => Math.round(ms / 1000);
  const listed = units
    .map((u) => (u.lastEnd === undefined ? u : { ...u, onShiftMs: Math.max(0, u.lastEnd - from) }))
    .filter((u) => u.onShiftMs > 0 || u.committedMs > 0)
    .sort((a, b) => (a.license_plate < b.license_plate ? -1 : a.license_plate > b.license_plate ? 1 : (a.ambulance_id ?? Infinity) - (b.ambulance_id ?? Infinity)));
  const committedMs = listed.reduce((s, u) => s + u.committedMs, 0);
  const onShiftMs = listed.reduce((s, u) => s + u.onShiftMs, 0);
  return {
    from: period.from, to: period.to,
    overall: { committed_s: seconds(committedMs), on_shift_s: seconds(onShiftMs), share: share(committedMs, onShiftMs) },
    ambulances: listed.map((u) => ({
      ambulance_id: u.ambulance_id, license_plate: u.license_plate,
      committed_s: seconds(u.committedMs), on_shift_s: seconds(u.onShiftMs), share: share(u.committedMs, u.onShiftMs),
    })),
  };
}

export function buildUtilisation(
  commitments: Iterable<CommitmentRow>, fleet: readonly FleetRow[], period: Pick<ReportPeriod, 'from' | 'to'>, nowMs: number,
): UtilisationReport {
  const tally = utilisationTally(fleet, period, nowMs);
  for (const c of commitments) tally.add(c);
  return tally.report();
}

export const reportService = {
  async responseTimes(svc: ServiceContext, period: ReportPeriod): Promise<ResponseTimesReport> {
    const tally = new ResponseTimesTally(period, svc.config.priorities);
    const calls = callGrouper((call) => tally.add(call));
    await reportRepository.eachCallRow(svc.db, period.from, period.to, calls.push);
    calls.end();
    return tally.report();
  },
  async demand(svc: ServiceContext, period: ReportPeriod): Promise<DemandReport> {
    const tally = demandTally(period);
    await reportRepository.eachCallTime(svc.db, period.from, period.to, tally.add);
    return tally.report();
  },
  async utilisation(svc: ServiceContext, period: ReportPeriod, nowMs = Date.now()): Promise<UtilisationReport> {
    const tally = utilisationTally(await reportRepository.fleetBefore(svc.db, period.to), period, nowMs);
    await reportRepository.eachCommitment(svc.db, period.from, period.to, tally.add);
    return tally.report();
  },
};
