import {
  type AssignmentDto, type CaseDto, type ConfigResponse, type PriorityInfo, type TimedStep, type UnitStep, NEMSIS_TIMES, TIMED_STEPS, isOpenAssignment, stepTimeKey,
} from '../../api/contract';
import {
  type TargetState, UNIT_STATUS_LABELS, clockStopped, compareBoard, formatClock, responseSeconds, stepSince, targetState, turnoutLate,
} from '../../domain/callLife';

/**
 * The words of a call on the boards: its response clock against its target, the unit's step and
 * for how long, a late turnout. Text as well as colour, so no state rests on colour alone.
 */

export const TARGET_STATE_TEXT: Record<TargetState, string> = {
  ok: 'Within target',
  amber: 'Near target',
  red: 'Past target',
};

export interface CallClock {
  seconds: number;
  /** "4:05" */
  clock: string;
  /** "target 15:00" */
  target: string;
  state: TargetState;
  stateText: string;
  /** The crew reached the scene: the response clock no longer runs. */
  stopped: boolean;
  /** A pending call: the clock is its waiting time. */
  waiting: boolean;
}

/** The response clock of one call (call received → the right unit on scene, PRIORITY_CLOCK_STOP) against its priority's target. */
export function callClock(
  c: Pick<CaseDto, 'status' | 'priority' | 'call_received_at' | 'assignments'>, info: Pick<PriorityInfo, 'target_s'>, nowMs: number,
  config?: Partial<Pick<ConfigResponse, 'clock_stops'>>,
): CallClock {
  const seconds = responseSeconds(c, nowMs, config);
  const state = targetState(seconds, info.target_s);
  return {
    seconds,
    clock: formatClock(seconds),
    target: `target ${formatClock(info.target_s)}`,
    state,
    stateText: TARGET_STATE_TEXT[state],
    stopped: clockStopped(c, config),
    waiting: c.status === 'pending',
  };
}

/** What the clock's caption says: "Waiting", "Since call" or "Response" once it stopped. */
export const clockCaption = (k: Pick<CallClock, 'stopped' | 'waiting'>) =>
  k.waiting ? 'Waiting' : k.stopped ? 'Response' : 'Since call';

export interface UnitLine {
  label: string;
  /** Seconds in the current step; null when its time is unknown or the assignment ended. */
  sinceS: number | null;
  /** "En route · 1:12" */
  text: string;
}

/** The unit's step and how long it has been in it. */
export function unitLine(a: AssignmentDto, nowMs: number): UnitLine {
  const since = stepSince(a);
  const sinceS = since && isOpenAssignment(a.status) ? Math.max(0, Math.floor((nowMs - Date.parse(since)) / 1000)) : null;
  const label = UNIT_STATUS_LABELS[a.status];
  return { label, sinceS, text: sinceS == null ? label : `${label} · ${formatClock(sinceS)}` };
}

/** "Turnout 1:12 — not moving" when the crew is still `dispatched` past the turnout target (NFPA 1710). */
export function turnoutText(a: AssignmentDto | null | undefined, nowMs: number, turnoutS: number): string | null {
  if (!a || !turnoutLate(a, nowMs, turnoutS)) return null;
  return `Turnout ${formatClock((nowMs - Date.parse(a.dispatched_at)) / 1000)} — not moving`;
}

/** The words on a step's button: "Next: En route", and plain "Clear" for the step that ends the job. */
export const stepButtonText = (step: UnitStep) => (step === 'cleared' ? 'Clear' : `Next: ${stepActionText(step)}`);

/** A step in a menu or a confirmation: "Clear" rather than "Cleared", "Handover complete" rather than "Handed over". */
export function stepActionText(step: UnitStep): string {
  if (step === 'cleared') return 'Clear';
  return step === 'handover' ? 'Handover complete' : UNIT_STATUS_LABELS[step];
}

/** The assignment a board's keys can move: the case's own, open, with an ambulance. */
export const movableAssignment = (c: Pick<CaseDto, 'assignment'>): (AssignmentDto & { ambulance_id: number }) | null =>
  c.assignment && c.assignment.ambulance_id != null && isOpenAssignment(c.assignment.status)
    ? (c.assignment as AssignmentDto & { ambulance_id: number })
    : null;

/** A recorded time's name with its NEMSIS element as the caption: "On scene (eTimes.06)". */
export function stepTimeName(step: TimedStep | 'cancelled' | 'call_received'): { name: string; nemsis: string } {
  if (step === 'call_received') return { name: 'Call received', nemsis: NEMSIS_TIMES.call_received_at };
  return { name: UNIT_STATUS_LABELS[step], nemsis: NEMSIS_TIMES[stepTimeKey(step)] };
}

/**
 * The board's order (compareBoard, the server's): open calls by priority, waiting first, oldest
 * first, then the ended, the latest ended first.
 */
export function casesTableOrder<T extends Pick<CaseDto, 'status' | 'priority' | 'call_received_at' | 'closed_at'>>(cases: readonly T[]): T[] {
  return [...cases].sort(compareBoard);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A recorded time to the second, in the user's locale and zone ("10:42:13", with the date when not today). */
export function stepTimeText(iso: string, nowMs: number, locale?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const time = d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return d.toDateString() === new Date(nowMs).toDateString() ? time : `${d.toLocaleDateString(locale, { month: 'short', day: 'numeric' })} ${time}`;
}

/** An ISO time as a `datetime-local` input holds it, in the browser's zone, to the second. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A `datetime-local` value (seconds optional) back to ISO; null when it is not a time. */
export function fromLocalInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The recorded times of an assignment a dispatcher may correct, in their order, each with its time. */
export function recordedSteps(a: AssignmentDto): { step: TimedStep; at: string }[] {
  return TIMED_STEPS.flatMap((step) => {
    const at = a[stepTimeKey(step)];
    return at ? [{ step, at }] : [];
  });
}
