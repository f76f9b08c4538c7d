// Response-time reports (DOMAIN.md §1–§2): zod-free, so the web may import its values.
import type { Priority } from './callLife';
import type { ClockStop } from './capability';

/**
 * The intervals EMS agencies report, each the difference of two NEMSIS eTimes:
 * call processing .01→.03, turnout .03→.05, travel .05→.06, response .01→.06,
 * on scene .06→.09, transport .09→.11, hospital turnaround .11→.13, task .03→.13.
 * With several units on a call, two more response intervals (.01→.06) say whose arrival:
 * `first_response` to the first unit on scene, whatever it can do, and `transport_response` to
 * the first unit able to convey (any capability but `responder`). `response` is the one of them
 * that the priority's clock stop (PRIORITY_CLOCK_STOP, the report's `clock_stop`) names.
 */
export const INTERVALS = [
  'call_processing', 'turnout', 'travel', 'response', 'first_response', 'transport_response', 'on_scene', 'transport', 'hospital_turnaround', 'task',
] as const;
export type Interval = (typeof INTERVALS)[number];

/**
 * Where each interval starts and ends: a case's call time or a step time of the call's responding
 * assignment, except for the arrivals of `response` (the clock stop's unit), `first_response` (the
 * first unit on scene) and `transport_response` (the first unit able to convey on scene).
 */
export const INTERVAL_BOUNDS: Record<Interval, readonly [from: string, to: string]> = {
  call_processing: ['call_received_at', 'dispatched_at'],
  turnout: ['dispatched_at', 'en_route_at'],
  travel: ['en_route_at', 'on_scene_at'],
  response: ['call_received_at', 'on_scene_at'],
  first_response: ['call_received_at', 'on_scene_at'],
  transport_response: ['call_received_at', 'on_scene_at'],
  on_scene: ['on_scene_at', 'transporting_at'],
  transport: ['transporting_at', 'at_hospital_at'],
  hospital_turnaround: ['at_hospital_at', 'cleared_at'],
  task: ['dispatched_at', 'cleared_at'],
};

export const INTERVAL_LABELS: Record<Interval, string> = {
  call_processing: 'Call processing',
  turnout: 'Turnout',
  travel: 'Travel',
  response: 'Response',
  first_response: 'First on scene',
  transport_response: 'Able to convey on scene',
  on_scene: 'On scene',
  transport: 'Transport',
  hospital_turnaround: 'Hospital turnaround',
  task: 'Task',
};

/**
 * Nearest-rank percentile (the usual definition in EMS reporting): of n values sorted
 * ascending, the one at rank ⌈p/100 × n⌉ (1-based). Always one of the values, never an
 * interpolation; null for no values.
 */
export function nearestRank(sortedAscending: ArrayLike<number>, p: number): number | null {
  const n = sortedAscending.length;
  return n === 0 ? null : sortedAscending[nearestRankIndex(n, p)];
}

/** The 0-based index of the p-th nearest-rank percentile among n ≥ 1 values sorted ascending. */
export function nearestRankIndex(n: number, p: number): number {
  return Math.min(n, Math.max(1, Math.ceil((p / 100) * n))) - 1;
}

/** One interval's figures over a group of calls; seconds, null without values. */
export interface IntervalFigures {
  /** Calls with this interval known. */
  n: number;
  mean_s: number | null;
  p50_s: number | null;
  p90_s: number | null;
  /** Calls of the group without it (a step skipped, the call cancelled before it, or not reached yet): left out, never read as zero. */
  missing: number;
}

export interface GroupReport {
  /** Calls whose call_received_at lies in the period. */
  calls: number;
  intervals: Record<Interval, IntervalFigures>;
  /** Of the calls with a response time, how many arrived within their priority's target, and that share (0–1; null without any). */
  response_within_target: { n: number; share: number | null };
}

export interface PriorityReport extends GroupReport {
  priority: Priority;
  /**
   * Which arrival stops this priority's response clock (PRIORITY_CLOCK_STOP), so which of
   * `first_response` and `transport_response` its `response` and `response_within_target` are:
   * `first`, the first unit on scene; `transport`, the first unit able to convey, but for a call
   * nobody conveyed (no unit of it reached transporting) the first unit on scene.
   */
  clock_stop: ClockStop;
  /** The priority's 90th-percentile response target in seconds (configuration). */
  target_s: number;
}

/** GET /api/reports/response-times?from=&to=&tz= */
export interface ResponseTimesReport {
  /** The period, half-open [from, to), as ISO UTC. */
  from: string;
  to: string;
  /** The IANA time zone days and hours are counted in. */
  tz: string;
  overall: GroupReport;
  priorities: PriorityReport[];
  /** The 90th-percentile response per local day and priority: days without a call of that priority are left out; p90_s is null when none of the day's calls has a response time. */
  daily: { date: string; priority: Priority; calls: number; p90_s: number | null }[];
}

/** GET /api/reports/utilisation?from=&to= — unit hour utilisation: time committed to calls ÷ time on shift. */
export interface UtilisationReport {
  from: string;
  to: string;
  overall: { committed_s: number; on_shift_s: number; share: number | null };
  ambulances: { ambulance_id: number | null; license_plate: string; committed_s: number; on_shift_s: number; share: number | null }[];
}

/** GET /api/reports/demand?from=&to=&tz= — calls by hour of week: counts[weekday][hour], Monday first (ISO weekday 1 → index 0). */
export interface DemandReport {
  from: string;
  to: string;
  tz: string;
  counts: number[][];
}

/**
 * One group's hospital handover figures (issue 30; docs/user-guide.md "The handover report"). The
 * handover time of an arrival is eTimes.11 → eTimes.12 (`at_hospital_at` → `handover_at`), judged
 * against HANDOVER_TARGETS (the report's `targets_min`, 15, 30, 45 and 60 minutes by default).
 */
export interface HandoverFigures {
  /** Units that arrived at the hospital (eTimes.11, `at_hospital_at`) in the period. */
  arrivals: number;
  /**
   * Arrival to handover of those arrivals: `n` with a handover time, `missing` without one (handover
   * skipped, not pressed yet, or broken data); nearest-rank percentiles in seconds, null without values.
   */
  handover: IntervalFigures;
  /** Handovers at most the first target (15 min) after arrival, and their share of `handover.n` (0–1, 4 decimals; null without any). */
  within_first_target: { n: number; share: number | null };
  /** Handovers at most the second target (30 min) after arrival, and their share. */
  within_second_target: { n: number; share: number | null };
  /** Handovers longer than the last target (60 min): the NHS's "none over 60". */
  over_last_target: number;
  /** Hours lost: each handover's time beyond the first target (15 min), summed, in hours (2 decimals). */
  hours_lost: number;
  /** Pre-alerts sent (eDisposition.25 in the period) to this hospital. */
  prealerts_sent: number;
  /** Of them, those the hospital acknowledged (whenever). */
  prealerts_acknowledged: number;
  /** Sent to acknowledged: `n` acknowledged, `missing` never acknowledged. */
  time_to_acknowledge: IntervalFigures;
}

/** GET /api/reports/handover?from=&to=&tz= — hospital handover per destination and overall. */
export interface HandoverReport {
  from: string;
  to: string;
  tz: string;
  /** HANDOVER_TARGETS in minutes, ascending: the first is the standard (15), the third "release to respond" (45). */
  targets_min: number[];
  /** Every arrival and pre-alert of the period, with a destination or not. */
  overall: HandoverFigures;
  /**
   * Per destination as kept on the assignment (its hospital's id, null once deleted, and its name when
   * chosen), by name; `name` null for arrivals with no destination recorded, listed last.
   */
  hospitals: (HandoverFigures & { hospital_id: number | null; name: string | null })[];
}

/**
 * The CSV's columns, in order: NEMSIS element names for the times (ISO 8601 UTC, empty when the step
 * was skipped); then the unit's capability when dispatched (als, bls, cct, responder) and the same
 * as its NEMSIS eResponse.07 code (contract NEMSIS_CAPABILITY); then the hospital end (issue 30):
 * the handover time (eTimes.12), the destination's name and reason (eDisposition.01, .20), and the
 * assignment's latest pre-alert's activation and sent time (eDisposition.24, .25). New columns go at the end.
 */
export const ASSIGNMENT_CSV_COLUMNS = [
  'case_id', 'assignment_id', 'priority', 'emergency_type', 'license_plate', 'outcome',
  'eTimes.01', 'eTimes.03', 'eTimes.05', 'eTimes.06', 'eTimes.09', 'eTimes.11', 'eTimes.13', 'eTimes.14',
  'capability', 'eResponse.07',
  'eTimes.12', 'eDisposition.01', 'eDisposition.20', 'eDisposition.24', 'eDisposition.25',
] as const;

/** The default period when none is given: the last 30 days. */
export const DEFAULT_REPORT_DAYS = 30;
/** The longest period one report may span. */
export const MAX_REPORT_DAYS = 400;
