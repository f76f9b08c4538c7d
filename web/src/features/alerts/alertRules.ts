import {
  type AmbulanceDto, type CaseDto, type ConfigResponse, type DispatchSuggestion, type PrealertLateAlert, type Priority, type UnitStatus,
  arrivalMinutes, formatDistance, prealertLateText, releaseToRespondText,
} from '../../api/contract';
import { boardOrder, priorityInfo, priorityTag } from '../../domain/callLife';
import { handoverTargets } from '../../domain/handover';

/**
 * Which changes of the live lists alert a dispatcher, and with what words. Pure: the hook feeds it
 * the cached cases and ambulances on every change and every clock tick, and plays what it answers.
 */

/**
 * `backup`: a crew on a call asked for another unit (backupRules.ts). `release`: a unit waits at
 * hospital past the third handover target (release to respond); `prealert-late`: no hospital
 * acknowledged a pre-alert in time (phone it).
 */
export type AlertReason = 'new-call' | 'queue-wait' | 'unit-free' | 'backup' | 'release' | 'prealert-late';

export interface CallAlert {
  /** One per call (or per freeing of a unit) and reason: a key alerts once. */
  key: string;
  reason: AlertReason;
  /** Decides the sound: priority 1 has its own. For a free unit, the most urgent waiting call's. */
  priority: Priority;
  /** Short, for the tab title and the desktop notification's title. */
  title: string;
  text: string;
  caseId?: string;
  ambulanceId?: number;
  /** The dispatcher's own action caused it: shown, but no sound, no title, no notification. */
  quiet?: boolean;
  /** A new call that came in waiting for an ambulance: its notice is a task, over once it is dispatched. */
  waiting?: boolean;
  /** The unit's assignment a release-to-respond prompt is about (over once it is handed over or clears). */
  assignmentId?: number;
  /** The late pre-alert a notice is about (over once the hospital acknowledges). */
  prealertId?: number;
}

type CaseView = Pick<CaseDto, 'id' | 'status' | 'priority' | 'call_received_at' | 'operator_id' | 'description' | 'patient_name'> & Partial<Pick<CaseDto, 'assignments'>>;
type AmbulanceView = Pick<AmbulanceDto, 'id' | 'license_plate' | 'unit_status' | 'version'>;

export interface WatchState {
  /** False until both lists have loaded once: what is there at that moment never alerts. */
  primed: boolean;
  caseIds: ReadonlySet<string>;
  /** The calls waiting for a unit at the last step: one that comes back to the queue alerts again. */
  waitingIds: ReadonlySet<string>;
  units: ReadonlyMap<number, UnitStatus>;
  alerted: ReadonlySet<string>;
}

export interface WatchInput {
  cases: readonly CaseView[] | undefined;
  ambulances: readonly AmbulanceView[] | undefined;
  /** The signed-in user's id: the calls they created are their own action. */
  meId: number;
  nowMs: number;
  config?: Pick<ConfigResponse, 'priorities'> & Partial<Pick<ConfigResponse, 'handover_targets'>>;
  /** Ambulances this tab's own writes just freed (cleared, or their case closed). */
  ownFreed?: ReadonlySet<number>;
  /** Pre-alerts no hospital acknowledged in time, as the socket told them (queries.prealertAlerts). */
  prealertLate?: readonly PrealertLateAlert[];
}

export const initialWatch = (): WatchState => ({ primed: false, caseIds: new Set(), waitingIds: new Set(), units: new Map(), alerted: new Set() });

const waitingMs = (c: Pick<CaseDto, 'call_received_at'>, nowMs: number) => Math.max(0, nowMs - Date.parse(c.call_received_at));

/** "6 min", "under 1 min": waits as a dispatcher says them. */
export function waitWords(ms: number): string {
  const min = Math.floor(ms / 60_000);
  return min < 1 ? 'under 1 min' : `${min} min`;
}

const MAX_WHAT = 80;
/** What the call is about, cut to one line (the description is free text). */
function what(c: Pick<CaseDto, 'description' | 'patient_name'>): string {
  const d = c.description.trim().replace(/\s+/g, ' ');
  const short = d.length > MAX_WHAT ? `${d.slice(0, MAX_WHAT - 1)}…` : d;
  return c.patient_name ? `${short} — ${c.patient_name}` : short;
}

const overdue = (c: CaseView, input: Pick<WatchInput, 'nowMs' | 'config'>) =>
  c.status === 'pending' && waitingMs(c, input.nowMs) >= priorityInfo(input.config, c.priority).queue_alert_s * 1000;

/** The waiting call a free ambulance should take: the most urgent, then the oldest. */
export function callToAssign<T extends Pick<CaseDto, 'status' | 'priority' | 'call_received_at'>>(cases: readonly T[]): T | undefined {
  return boardOrder(cases.filter((c) => c.status === 'pending'))[0];
}

/** "TS09 EA 1003 is free — 2 calls waiting, oldest P1 6 min" (null when no call waits). */
export function freeUnitSummary(plate: string, cases: readonly Pick<CaseDto, 'status' | 'priority' | 'call_received_at'>[], nowMs: number): string | null {
  const waiting = cases.filter((c) => c.status === 'pending');
  const first = callToAssign(waiting);
  if (!first) return null;
  const count = waiting.length === 1 ? '1 call waiting' : `${waiting.length} calls waiting`;
  return `${plate} is free — ${count}, oldest ${priorityTag(first.priority)} ${waitWords(waitingMs(first, nowMs))}`;
}

/** The server's estimate in the one way every screen words it (contract arrivalMinutes). */
const etaMin = (s: Pick<DispatchSuggestion, 'eta_s'>) => arrivalMinutes(s.eta_s);

/**
 * The freed unit's place in the dispatch ranking for the call it would take: "2.1 km, about 5 min
 * to that call", with "(last position stale)" when its fix is old, and the unit the ranking puts
 * first when that is another ("TS09 EA 1001 would be there sooner: about 3 min"). Null when the
 * ranking does not list it (no position, or no longer free).
 * Every figure is an estimate, and says so.
 */
export function freeUnitRankText(ambulanceId: number, suggestions: readonly DispatchSuggestion[]): string | null {
  const own = suggestions.find((s) => s.ambulance_id === ambulanceId);
  if (!own) return null;
  const words = [`Estimate: ${formatDistance(own.distance_m)}, about ${etaMin(own)} min to that call${own.stale ? ' (last position stale)' : ''}`];
  const first = suggestions[0];
  if (first && first.ambulance_id !== ambulanceId && first.eta_s < own.eta_s) {
    words.push(`${first.license_plate} would be there sooner: about ${etaMin(first)} min`);
  }
  return words.join('. ');
}

/** The one action of a free-unit notice. */
export const assignLabel = (plate: string, p: Priority) => `Assign ${plate} to oldest ${priorityTag(p)} call`;

function newCallAlert(c: CaseView, input: WatchInput): CallAlert {
  const tag = priorityTag(c.priority);
  const waiting = c.status === 'pending' ? `, waiting for an ambulance ${waitWords(waitingMs(c, input.nowMs))}` : '';
  return {
    key: `new:${c.id}`, reason: 'new-call', priority: c.priority, caseId: c.id, ...(c.status === 'pending' ? { waiting: true } : {}),
    title: `New ${tag} call`,
    text: `New ${tag} call (${priorityInfo(input.config, c.priority).label})${waiting}: ${what(c)}`,
  };
}

/** A call whose unit was taken for a more urgent one (or taken off it): waiting again, a task for every dispatcher. */
function requeuedAlert(c: CaseView, input: WatchInput): CallAlert {
  const tag = priorityTag(c.priority);
  return {
    key: `requeue:${c.id}`, reason: 'queue-wait', priority: c.priority, caseId: c.id, waiting: true,
    title: `${tag} call back in the queue`,
    text: `${tag} call back in the queue, waiting for an ambulance ${waitWords(waitingMs(c, input.nowMs))}: ${what(c)}`,
  };
}

function waitAlert(c: CaseView, input: WatchInput): CallAlert {
  const tag = priorityTag(c.priority);
  return {
    key: `wait:${c.id}`, reason: 'queue-wait', priority: c.priority, caseId: c.id,
    title: `${tag} call waiting`,
    text: `${tag} call waiting ${waitWords(waitingMs(c, input.nowMs))} with no ambulance: ${what(c)}`,
  };
}

/** The units of running calls waiting at hospital past the third handover target (45 min by default), with their call. */
function releaseDue(cases: readonly CaseView[], input: Pick<WatchInput, 'nowMs' | 'config'>) {
  const minutes = handoverTargets(input.config)[2];
  return cases.flatMap((c) => (c.status !== 'active' ? [] : (c.assignments ?? [])
    .filter((a) => a.status === 'at_hospital' && a.at_hospital_at != null && input.nowMs - Date.parse(a.at_hospital_at) >= minutes * 60_000)
    .map((a) => ({ c, a, minutes }))));
}

function releaseAlert({ c, a, minutes }: ReturnType<typeof releaseDue>[number]): CallAlert {
  const text = releaseToRespondText(a.license_plate ?? `Ambulance #${a.ambulance_id}`, a.destination?.name ?? 'hospital', minutes);
  return { key: `release:${a.id}`, reason: 'release', priority: c.priority, caseId: c.id, ambulanceId: a.ambulance_id ?? undefined, assignmentId: a.id, title: text, text };
}

function prealertAlert(p: PrealertLateAlert): CallAlert {
  const text = prealertLateText(p);
  return { key: `prealert:${p.prealert_id}`, reason: 'prealert-late', priority: p.priority as Priority, caseId: p.case_id, assignmentId: p.assignment_id, prealertId: p.prealert_id, title: text, text };
}

/**
 * One step of the watch: the alerts the lists' change (or the clock's) calls for, and the state
 * after it. Each key alerts once; the first complete lists are the baseline and alert nothing
 * (calls already waiting past their threshold then included: the board already shows them red).
 */
export function watchStep(state: WatchState, input: WatchInput): { state: WatchState; alerts: CallAlert[] } {
  const { cases, ambulances } = input;
  if (!cases || !ambulances) return { state, alerts: [] };
  const units = new Map(ambulances.map((a) => [a.id, a.unit_status] as const));
  // What the watch remembers is what is on the board and the fleet now, never every call the
  // tab has seen: the 1 Hz tick costs the board's size, however long the tab stays open.
  const caseIds = new Set(cases.map((c) => c.id));
  const waitingIds = new Set(cases.filter((c) => c.status === 'pending').map((c) => c.id));
  // A requeue's key lives while its call waits: dispatched, the call may be requeued (and alert) again.
  const atHospital = cases.flatMap((c) => (c.assignments ?? []).filter((a) => a.status === 'at_hospital').map((a) => `release:${a.id}`));
  const late = input.prealertLate ?? [];
  const current = new Set([...caseIds].flatMap((id) => [`new:${id}`, `wait:${id}`]).concat(
    [...waitingIds].map((id) => `requeue:${id}`), ambulances.map((a) => `free:${a.id}:${a.version}`), atHospital, late.map((p) => `prealert:${p.prealert_id}`),
  ));
  const alerted = new Set([...state.alerted].filter((k) => current.has(k)));
  const due = releaseDue(cases, input);

  if (!state.primed) {
    for (const c of cases) if (overdue(c, input)) alerted.add(`wait:${c.id}`);
    // Already past it when the board opened: the card's clock says so ("Past 45 min: release to respond").
    for (const d of due) alerted.add(`release:${d.a.id}`);
    return { state: { primed: true, caseIds, waitingIds, units, alerted }, alerts: [] };
  }

  const alerts: CallAlert[] = [];
  const raise = (a: CallAlert) => {
    if (alerted.has(a.key)) return;
    alerted.add(a.key);
    alerts.push(a);
  };

  for (const c of cases) {
    if (state.caseIds.has(c.id) || c.status === 'closed' || c.status === 'resolved') continue;
    if (c.operator_id === input.meId) continue;
    raise(newCallAlert(c, input));
    // Its notice already says how long it waits: no second one for the same call now.
    if (overdue(c, input)) alerted.add(`wait:${c.id}`);
  }
  for (const c of cases) if (overdue(c, input)) raise(waitAlert(c, input));
  // Known, not waiting a step ago, waiting now: its unit went to another call. Whoever did it, the queue grew.
  for (const c of cases) if (state.caseIds.has(c.id) && waitingIds.has(c.id) && !state.waitingIds.has(c.id)) raise(requeuedAlert(c, input));

  for (const a of ambulances) {
    const before = state.units.get(a.id);
    if (before === undefined || before === 'available' || a.unit_status !== 'available') continue;
    const text = freeUnitSummary(a.license_plate, cases, input.nowMs);
    const first = callToAssign(cases);
    if (!text || !first) continue;
    raise({
      key: `free:${a.id}:${a.version}`, reason: 'unit-free', priority: first.priority, ambulanceId: a.id,
      title: `${a.license_plate} is free`, text, quiet: input.ownFreed?.has(a.id) || undefined,
    });
  }
  for (const d of due) raise(releaseAlert(d));
  for (const p of late) raise(prealertAlert(p));

  return { state: { primed: true, caseIds, waitingIds, units, alerted }, alerts };
}

/** A raised alert as the notices hold it: with the (server) time it was raised. */
export interface HeldAlert { alert: CallAlert; at: number }

/** A new call someone else already gave an ambulance is news, not a task: it is shown this long. */
export const NEWS_MS = 2 * 60_000;

type CaseLook = CaseView & Pick<CaseDto, 'status'>;
type UnitLook = Pick<AmbulanceDto, 'id' | 'unit_status'>;

/**
 * Whether a held alert is over: its call was dispatched (a wait, a waiting new call), ended or
 * left the board; its unit was taken (a free unit) or no call waits any more; a running new
 * call's news is older than NEWS_MS.
 */
export function alertResolved(h: HeldAlert, cases: readonly CaseLook[], ambulances: readonly UnitLook[], nowMs: number, lateIds?: ReadonlySet<number>): boolean {
  const { alert } = h;
  // Acknowledged (gone from the late list) or its call over.
  if (alert.reason === 'prealert-late') return (lateIds != null && !lateIds.has(alert.prealertId!)) || !cases.some((c) => c.id === alert.caseId && c.status === 'active');
  if (alert.reason === 'release') {
    const unit = cases.find((c) => c.id === alert.caseId)?.assignments?.find((a) => a.id === alert.assignmentId);
    return unit?.status !== 'at_hospital';
  }
  if (alert.reason === 'unit-free') {
    const unit = ambulances.find((a) => a.id === alert.ambulanceId);
    return !unit || unit.unit_status !== 'available' || !cases.some((c) => c.status === 'pending');
  }
  const c = cases.find((x) => x.id === alert.caseId);
  if (!c || (c.status !== 'pending' && c.status !== 'active')) return true;
  if (c.status === 'pending') return false;
  // Running: a wait is over (dispatched), so is a new call that came in waiting; one that came in running stays as news a while.
  return alert.reason === 'queue-wait' || alert.waiting === true || nowMs - h.at >= NEWS_MS;
}

/** The held alerts still to show (a resolved one expires: it is not shown again). */
export function pruneAlerts(
  held: readonly HeldAlert[], cases: readonly CaseLook[] | undefined, ambulances: readonly UnitLook[] | undefined, nowMs: number, lateIds?: ReadonlySet<number>,
): HeldAlert[] {
  if (!cases || !ambulances) return [...held];
  return held.filter((h) => !alertResolved(h, cases, ambulances, nowMs, lateIds));
}

/** `hospital`: a release-to-respond prompt or a late pre-alert, each its own notice. */
export type NoticeKind = 'waiting' | 'new-call' | 'unit-free' | 'hospital';

/** One notice on screen: a free unit (with its action), every waiting call in one, or the news of one new call. */
export interface Notice {
  /** Stable while the notice shows (React key, test id). */
  key: string;
  kind: NoticeKind;
  /** The most urgent of what it says: it decides the order and the colour. */
  priority: Priority;
  text: string;
  /** The held alerts it stands for: closing it dismisses them all. */
  keys: string[];
  /** The free unit's alert (kind unit-free). */
  alert?: CallAlert;
  /** When its latest alert was raised (newest first within a priority and kind). */
  at: number;
}

const KIND_ORDER: Record<NoticeKind, number> = { waiting: 0, 'unit-free': 1, hospital: 2, 'new-call': 3 };

/** "3 calls waiting, oldest P1 4 min" (null under two calls waiting: then the call's own words say it). */
export function queueSummary(cases: readonly Pick<CaseDto, 'status' | 'priority' | 'call_received_at'>[], nowMs: number): string | null {
  const waiting = cases.filter((c) => c.status === 'pending');
  const first = callToAssign(waiting);
  if (!first || waiting.length < 2) return null;
  return `${waiting.length} calls waiting, oldest ${priorityTag(first.priority)} ${waitWords(waitingMs(first, nowMs))}`;
}

/**
 * The held alerts as notices, most urgent first (by priority; within one, waiting calls, then free
 * units, then news; newest first). Every alert about a waiting call is one notice that sums up the
 * whole queue ("3 calls waiting, oldest P1 4 min"), its priority the most urgent waiting call's; a
 * free unit keeps its own (its action names the unit), and so does a new running call (news that
 * expires by itself). `nowMs` words the waits: the caller passes the time the notices last changed, so
 * a live region does not re-announce a ticking minute.
 */
export function arrangeNotices(held: readonly HeldAlert[], cases: readonly CaseView[], nowMs: number): Notice[] {
  const byId = new Map(cases.map((c) => [c.id, c] as const));
  const waiting: HeldAlert[] = [];
  const news: HeldAlert[] = [];
  const notices: Notice[] = [];
  for (const h of held) {
    const { alert } = h;
    if (alert.reason === 'unit-free') {
      notices.push({ key: alert.key, kind: 'unit-free', priority: alert.priority, text: alert.text, keys: [alert.key], alert, at: h.at });
      continue;
    }
    if (alert.reason === 'release' || alert.reason === 'prealert-late') {
      notices.push({ key: alert.key, kind: 'hospital', priority: alert.priority, text: alert.text, keys: [alert.key], alert, at: h.at });
      continue;
    }
    const c = alert.caseId ? byId.get(alert.caseId) : undefined;
    if (c?.status === 'pending') waiting.push(h);
    else if (c?.status === 'active' && alert.reason === 'new-call') news.push(h);
  }
  const latest = (hs: HeldAlert[]) => hs.reduce((a, b) => (b.at >= a.at ? b : a));
  if (waiting.length) {
    const first = callToAssign(cases)!;
    const own = latest(waiting);
    notices.push({
      key: 'waiting', kind: 'waiting', priority: first.priority,
      text: queueSummary(cases, nowMs) ?? own.alert.text,
      keys: waiting.map((h) => h.alert.key), at: own.at,
    });
  }
  // News (a new call someone else already sent a unit to) is one notice a call: it expires by itself.
  for (const h of news) notices.push({ key: h.alert.key, kind: 'new-call', priority: h.alert.priority, text: h.alert.text, keys: [h.alert.key], at: h.at });
  return notices.sort((a, b) => a.priority - b.priority || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || b.at - a.at);
}

/** At most this many notices show at once (the most urgent); the rest are one press away, never dropped. */
export const MAX_SHOWN = 3;

/** "2 more alerts: P1, P3": what is folded away past MAX_SHOWN, by priority (most urgent first). */
export function moreText(priorities: readonly Priority[]): string {
  const tags = [...new Set(priorities)].sort((a, b) => a - b).map(priorityTag).join(', ');
  return `${priorities.length} more ${priorities.length === 1 ? 'alert' : 'alerts'}: ${tags}`;
}

/**
 * The ambulance one of this tab's writes is about to free, from the write's variables: a unit
 * cleared (`setUnitStatus`) or stood down (`standDown`), or a case closed, resolved, put back to pending or given another
 * ambulance (`updateCase`), or deleted (`deleteCase`), while holding one. Read when the write starts: the socket's event may
 * come before the write's answer.
 */
export function ambulanceFreedBy(variables: unknown, cases: readonly (Pick<CaseDto, 'id' | 'status' | 'ambulance_id'> & Partial<Pick<CaseDto, 'assignments'>>)[] | undefined): number | null {
  // Only an active case holds its ambulance (a closed one's last assignment names one long gone).
  const holder = (id: string) => {
    const c = cases?.find((x) => x.id === id);
    return c?.status === 'active' ? c.ambulance_id : null;
  };
  if (typeof variables === 'string') return holder(variables);
  if (!variables || typeof variables !== 'object') return null;
  const v = variables as { ambulanceId?: unknown; id?: unknown; caseId?: unknown; assignmentId?: unknown; reason?: unknown; body?: { status?: unknown; ambulance_id?: unknown } };
  const body = v.body && typeof v.body === 'object' ? v.body : {};
  if (typeof v.ambulanceId === 'number' && body.status === 'cleared') return v.ambulanceId;
  // A unit stood down (`standDown`) is free again.
  if (typeof v.assignmentId === 'number' && typeof v.reason === 'string') {
    return cases?.find((c) => c.id === v.caseId)?.assignments?.find((a) => a.id === v.assignmentId)?.ambulance_id ?? null;
  }
  if (typeof v.id !== 'string') return null;
  const held = holder(v.id);
  if (body.status === 'closed' || body.status === 'resolved' || body.status === 'pending') return held;
  // A reassignment frees the ambulance the case held.
  return 'ambulance_id' in body && body.ambulance_id !== held ? held : null;
}
