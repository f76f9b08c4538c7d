import {
  type AmbulanceDto, type AssignmentDto, type AssignmentStatus, type CaseDto, type ConfigResponse, type Priority, type PriorityInfo,
  type UnitStatus, type UnitStep, TURNOUT_TARGET_S, UNIT_STEPS, responseClockStoppedAt, stepTimeKey,
} from '../api/contract';

/**
 * The call's life as the boards show it (DOMAIN.md §1–§2): priority order, the response clock
 * against its target, the unit's step and its next one. Pure rules, one place for every screen.
 */

/** Calls a dispatcher still works: waiting for an ambulance (pending) or running (active). */
export const isOpenCall = (c: Pick<CaseDto, 'status'>) => c.status === 'active' || c.status === 'pending';

/**
 * A call that waits for a unit, as the server's dispatch route takes it (contract/queue.ts): pending,
 * or active without an ambulance (taken before any was free). Its card offers Assign.
 */
export const awaitsUnit = (c: Pick<CaseDto, 'status' | 'ambulance_id'>) => c.status === 'pending' || (c.status === 'active' && c.ambulance_id == null);

/** Fallback words and targets when the server's configuration has not loaded (the NHS categories). */
export const DEFAULT_PRIORITIES: PriorityInfo[] = [
  { priority: 1, label: 'Life-threatening', target_s: 900, mean_target_s: 420, queue_alert_s: 60 },
  { priority: 2, label: 'Emergency', target_s: 2400, mean_target_s: 1080, queue_alert_s: 120 },
  { priority: 3, label: 'Urgent', target_s: 7200, mean_target_s: null, queue_alert_s: 300 },
  { priority: 4, label: 'Less urgent', target_s: 10800, mean_target_s: null, queue_alert_s: 600 },
];

export const priorityInfo = (config: Pick<ConfigResponse, 'priorities'> | undefined, p: Priority): PriorityInfo =>
  (config?.priorities ?? DEFAULT_PRIORITIES).find((x) => x.priority === p) ?? DEFAULT_PRIORITIES[2];

export const turnoutSeconds = (config: Pick<ConfigResponse, 'turnout_s'> | undefined) => config?.turnout_s ?? TURNOUT_TARGET_S;

/** "P1" — the short mark on every card. */
export const priorityTag = (p: Priority) => `P${p}`;

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

type BoardRow = Pick<CaseDto, 'status' | 'priority' | 'call_received_at'> & { closed_at?: string | null; id?: string };

/**
 * The board's order (contract/caseLists.ts, the server's ORDER BY): open calls first, by
 * priority (1 on top), within a priority the waiting (pending) above the running, each group
 * oldest call first; then the ended, the latest ended first. The id breaks ties so that the order is total
 * and an inserted row lands where the server would put it. The one comparator: the live cache
 * inserts with it, the boards sort with it, the tests check both against it.
 */
export function compareBoard(a: BoardRow, b: BoardRow): number {
  const openA = isOpenCall(a);
  const openB = isOpenCall(b);
  if (openA !== openB) return openA ? -1 : 1;
  const byId = (a.id ?? '') < (b.id ?? '') ? -1 : (a.id ?? '') > (b.id ?? '') ? 1 : 0;
  if (!openA) return (ms(b.closed_at) || 0) - (ms(a.closed_at) || 0) || -byId;
  return a.priority - b.priority
    || Number(b.status === 'pending') - Number(a.status === 'pending')
    || ms(a.call_received_at) - ms(b.call_received_at)
    || byId;
}

/**
 * Open calls in board order: priority first (1 on top), then within a priority the waiting
 * (pending) calls above the running ones, each group oldest call first.
 */
export function boardOrder<T extends BoardRow>(cases: readonly T[]): T[] {
  return cases.filter(isOpenCall).sort(compareBoard);
}

type StopRow = Pick<CaseDto, 'priority' | 'assignments'>;
type StopConfig = Partial<Pick<ConfigResponse, 'clock_stops'>> | undefined;
/** The configuration the clock reads: the targets, and which arrival stops each priority's clock (the defaults without it). */
type ClockConfig = Pick<ConfigResponse, 'priorities'> & Partial<Pick<ConfigResponse, 'clock_stops'>>;

/**
 * The right unit reached the scene: the response clock no longer runs (contract
 * responseClockStoppedAt: the first unit for a priority whose clock stops at the first arrival,
 * else the first able to convey).
 */
export const clockStopped = (c: StopRow, config?: StopConfig) => responseClockStoppedAt(c, config?.clock_stops) != null;

/** Seconds since the call came in: stopped when the right unit reached the scene (the response clock, NHS ARP). */
export function responseSeconds(c: StopRow & Pick<CaseDto, 'call_received_at'>, nowMs: number, config?: StopConfig): number {
  const stoppedAt = responseClockStoppedAt(c, config?.clock_stops);
  const end = stoppedAt != null ? ms(stoppedAt) : nowMs;
  return Math.max(0, Math.floor((end - ms(c.call_received_at)) / 1000));
}

export type TargetState = 'ok' | 'amber' | 'red';

/** Amber past 80 % of the target, red past it. */
export const targetState = (elapsedS: number, targetS: number): TargetState =>
  elapsedS > targetS ? 'red' : elapsedS > 0.8 * targetS ? 'amber' : 'ok';

type ClockRow = Pick<CaseDto, 'status' | 'priority' | 'call_received_at' | 'assignments'>;

/**
 * An open call past its priority's response target with nobody on scene yet: the board's red
 * "Past target" (targetState of the response clock) on a call that still waits for help. A call
 * whose crew arrived late missed its target too, but needs nothing more now.
 */
export const isPastTarget = (c: ClockRow, config: ClockConfig | undefined, nowMs: number) =>
  isOpenCall(c) && !clockStopped(c, config) && targetState(responseSeconds(c, nowMs, config), priorityInfo(config, c.priority).target_s) === 'red';

/**
 * The board as a dispatcher reads it at `nowMs`: the board's order (compareBoard), with the calls
 * past target lifted to the top of their priority (oldest first, as compareBoard has them), so a
 * P1 nobody has reached in time is the first card, never below the fold under newer P1s. The
 * server lists in compareBoard's order (it knows no clock); the screen adds this one key.
 */
export function urgentBoardOrder<T extends BoardRow & ClockRow>(cases: readonly T[], config: ClockConfig | undefined, nowMs: number): T[] {
  const late = new Set(cases.filter((c) => isPastTarget(c, config, nowMs)));
  return boardOrder(cases).sort((a, b) => a.priority - b.priority || Number(late.has(b)) - Number(late.has(a)) || compareBoard(a, b));
}

/** "4:05", "1:02:09": a clock a dispatcher reads at a glance. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export const UNIT_STATUS_LABELS: Record<UnitStatus | AssignmentStatus, string> = {
  available: 'Available',
  maintenance: 'Maintenance',
  dispatched: 'Dispatched',
  en_route: 'En route',
  on_scene: 'On scene',
  transporting: 'Transporting',
  at_hospital: 'At hospital',
  handover: 'Handed over',
  cleared: 'Cleared',
  cancelled: 'Cancelled',
};

/**
 * One colour per unit status, told apart by hue and lightness (the legend names each; colour is
 * never the only cue). Dark enough for white text at 4.5:1.
 */
export const UNIT_STATUS_COLORS: Record<UnitStatus, string> = {
  available: '#2e7d32',
  dispatched: '#b45309',
  en_route: '#1565c0',
  on_scene: '#c62828',
  transporting: '#6a1b9a',
  at_hospital: '#00695c',
  handover: '#37474f',
  maintenance: '#616161',
};

/** The step a crew reports next, or null once cleared (or for an assignment that ended). */
export function nextUnitStep(status: AssignmentStatus | UnitStatus | null | undefined): UnitStep | null {
  if (status === 'dispatched') return 'en_route';
  const i = UNIT_STEPS.indexOf(status as UnitStep);
  return i >= 0 && i < UNIT_STEPS.length - 1 ? UNIT_STEPS[i + 1] : null;
}

/** The steps still ahead of an assignment (a step may be skipped: on scene → clear). */
export function stepsAhead(status: AssignmentStatus | UnitStatus | null | undefined): UnitStep[] {
  if (status === 'dispatched') return [...UNIT_STEPS];
  const i = UNIT_STEPS.indexOf(status as UnitStep);
  return i >= 0 ? UNIT_STEPS.slice(i + 1) : [];
}

/** When the assignment reached its current step. */
export function stepSince(a: Pick<AssignmentDto, 'status'> & Partial<AssignmentDto>): string | null {
  return a[stepTimeKey(a.status)] ?? null;
}

/** NFPA 1710: an assignment still `dispatched` past the turnout target is flagged. */
export function turnoutLate(a: Pick<AssignmentDto, 'status' | 'dispatched_at'> | null | undefined, nowMs: number, turnoutS = TURNOUT_TARGET_S): boolean {
  return a?.status === 'dispatched' && nowMs - ms(a.dispatched_at) > turnoutS * 1000;
}

/** An ambulance's unit status, for servers that predate it: busy reads as dispatched. */
export const unitStatusOf = (a: Pick<AmbulanceDto, 'status'> & { unit_status?: UnitStatus }): UnitStatus =>
  a.unit_status ?? (a.status === 'busy' ? 'dispatched' : a.status);
