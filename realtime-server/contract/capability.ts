/**
 * What a unit can do (DOMAIN.md §5, NEMSIS eResponse.07) and the rules that follow from it: which
 * units may convey a patient, which meet a priority's need, which of a call's units is its primary,
 * and which arrival stops the call's response clock. Zod-free, so the web may import its values
 * (the request schemas are capabilitySchemas.ts).
 */
import { type AssignmentDto, type AssignmentStatus, PRIORITIES, type Priority, isOpenAssignment } from './callLife';

/** Transport capabilities from the least to the most; `responder` (a rapid response car) treats but cannot convey. */
export const TRANSPORT_CAPABILITIES = ['bls', 'als', 'cct'] as const;
export type TransportCapability = (typeof TRANSPORT_CAPABILITIES)[number];
export const CAPABILITIES = ['als', 'bls', 'cct', 'responder'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const DEFAULT_CAPABILITY: Capability = 'als';

/** Whether a unit of this capability can convey a patient. */
export const canTransport = (c: string) => c !== 'responder';

/** Words that never rely on colour: the fleet, the map, the call's card and Manage Ambulances. */
export const CAPABILITY_LABELS: Record<Capability, string> = {
  als: 'ALS',
  bls: 'BLS',
  cct: 'CCT',
  responder: 'Car — cannot convey',
};
export const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  als: 'Ambulance, advanced life support',
  bls: 'Ambulance, basic life support',
  cct: 'Ambulance, critical care',
  responder: 'Rapid response car: treats, cannot convey',
};

/** NEMSIS v3.5 eResponse.07 (Unit Transport and Equipment Capability) codes. */
export const NEMSIS_CAPABILITY: Record<Capability, string> = {
  als: '2207015', // Ground Transport (ALS Equipped)
  bls: '2207017', // Ground Transport (BLS Equipped)
  cct: '2207019', // Ground Transport (Critical Care Equipped)
  responder: '2207021', // Non-Transport-Medical Treatment (ALS Equipped)
};

/** The least transport capability each priority needs (PRIORITY_NEEDS, GET /api/config's `priority_needs`). */
export type PriorityNeeds = Record<Priority, TransportCapability>;
export const DEFAULT_PRIORITY_NEEDS: PriorityNeeds = { 1: 'als', 2: 'als', 3: 'bls', 4: 'bls' };

/** Whether a unit meets a need: it conveys, at that level or above (bls < als < cct). */
export function meetsNeed(capability: string, need: TransportCapability): boolean {
  const rank = TRANSPORT_CAPABILITIES.indexOf(capability as TransportCapability);
  return rank >= 0 && rank >= TRANSPORT_CAPABILITIES.indexOf(need);
}

/**
 * Which arrival stops a priority's response clock (PRIORITY_CLOCK_STOP): `first`, the first unit
 * on scene (NHS Category 1), or `transport`, the first unit able to convey (Categories 2–4; a call
 * nobody conveyed stops at the first arrival).
 */
export const CLOCK_STOPS = ['first', 'transport'] as const;
export type ClockStop = (typeof CLOCK_STOPS)[number];
export type PriorityClockStops = Record<Priority, ClockStop>;
export const DEFAULT_CLOCK_STOPS: PriorityClockStops = { 1: 'first', 2: 'transport', 3: 'transport', 4: 'transport' };

/** Reads `1=als,2=als,3=bls,4=bls`-style text: one value per priority, each from `values`. Throws with the variable's name. */
export function parsePerPriority<V extends string>(name: string, text: string, values: readonly V[]): Record<Priority, V> {
  const out = {} as Record<Priority, V>;
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([1-4])\s*=\s*(\S+)$/.exec(part);
    if (!m || !values.includes(m[2] as V)) throw new Error(`Invalid environment: ${name}: "${part}" is not priority=value with a value from ${values.join(', ')}`);
    out[Number(m[1]) as Priority] = m[2] as V;
  }
  const missing = PRIORITIES.filter((p) => !(p in out));
  if (missing.length) throw new Error(`Invalid environment: ${name}: give a value for every priority (missing ${missing.join(', ')})`);
  return out;
}

/** Steps at which an open assignment is conveying its patient. */
const CONVEYING: readonly AssignmentStatus[] = ['transporting', 'at_hospital'];

/**
 * The call's primary unit, the one SPEC's single-unit fields (`assignment`, `ambulance_id`,
 * `license_plate`) name: the open one conveying the patient, else the first dispatched still open;
 * with none open, the last that conveyed, else the last of all. Null for a call that never had one.
 */
export function primaryAssignment<A extends Pick<AssignmentDto, 'id' | 'status' | 'dispatched_at' | 'transporting_at'>>(list: readonly A[]): A | null {
  const byDispatch = [...list].sort((a, b) => a.dispatched_at.localeCompare(b.dispatched_at) || a.id - b.id);
  const open = byDispatch.filter((a) => isOpenAssignment(a.status));
  const conveying = open.find((a) => CONVEYING.includes(a.status));
  if (conveying) return conveying;
  if (open.length) return open[0];
  const byId = [...list].sort((a, b) => b.id - a.id);
  return byId.find((a) => a.status === 'cleared' && a.transporting_at != null) ?? byId[0] ?? null;
}

/** A call's units as its card lists them: open ones first, each group in dispatch order. */
export const unitsInOrder = <A extends Pick<AssignmentDto, 'id' | 'status' | 'dispatched_at'>>(list: readonly A[]): A[] =>
  [...list].sort((a, b) => Number(isOpenAssignment(b.status)) - Number(isOpenAssignment(a.status))
    || a.dispatched_at.localeCompare(b.dispatched_at) || a.id - b.id);

/**
 * When a call's response clock stopped, as the boards show it live (null: still running), by its
 * priority's clock stop: `first`, the first unit on scene; `transport`, the first unit able to
 * convey on scene, or, once no unit is left on the call and none could convey from the scene (a
 * call nobody conveyed), the first arrival. The reports apply the same rule to finished calls.
 */
export function responseClockStoppedAt(
  c: { priority: Priority; assignments: readonly Pick<AssignmentDto, 'status' | 'on_scene_at' | 'can_transport'>[] },
  clockStops: PriorityClockStops = DEFAULT_CLOCK_STOPS,
): string | null {
  const arrivals = (list: readonly Pick<AssignmentDto, 'on_scene_at'>[]) =>
    list.map((a) => a.on_scene_at).filter((t): t is string => t != null).sort()[0] ?? null;
  const first = arrivals(c.assignments);
  if ((clockStops[c.priority] ?? 'first') === 'first') return first;
  const conveyor = arrivals(c.assignments.filter((a) => a.can_transport));
  return conveyor ?? (c.assignments.some((a) => isOpenAssignment(a.status)) ? null : first);
}

/** A crew's request for backup as its call keeps it (the event's and the case's `backup_request`). */
export interface BackupRequestState {
  case_id: string;
  ambulance_id: number;
  license_plate: string;
  note: string | null;
  at: string;
}

/**
 * Whether a request is answered: its call is over, or a unit other than the asking one was sent to
 * it at or after the request. The server stops presenting an answered request; the boards stop alerting.
 */
export const backupAnswered = (
  r: Pick<BackupRequestState, 'ambulance_id' | 'at'>,
  c: { status: string; assignments: readonly Pick<AssignmentDto, 'ambulance_id' | 'dispatched_at'>[] },
) => (c.status !== 'active' && c.status !== 'pending') || c.assignments.some((u) => u.ambulance_id !== r.ambulance_id && u.dispatched_at >= r.at);
