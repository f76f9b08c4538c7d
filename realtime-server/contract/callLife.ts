import type { Capability } from './capability';
import type { DestinationDto, PrealertSummary } from './hospitals';

/**
 * A call's life as EMS records it (DOMAIN.md §1, NEMSIS v3.5 eTimes): the unit's status lives
 * on its assignment to the call, each step with the time it was reached.
 */

/** Priority 1 (most urgent) to 4, the NHS Ambulance Response Programme's categories by default (DOMAIN.md §2). */
export const PRIORITIES = [1, 2, 3, 4] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * The emergency types the New Case form offers (SPEC §5's, in its order, then the two added by
 * issue 25, before Other), each with the priority a call of that type gets when the caller names
 * none (docs/user-guide.md, "Priority"). A free-text note (the description) goes with any of them.
 */
export const EMERGENCY_TYPES = [
  { type: 'Medical Emergency', priority: 2 },
  { type: 'Accident', priority: 2 },
  { type: 'Heart Attack', priority: 1 },
  { type: 'Stroke', priority: 1 },
  { type: 'Injury', priority: 2 },
  { type: 'Cardiac arrest', priority: 1 },
  { type: 'Breathing problems', priority: 1 },
  { type: 'Other', priority: 3 },
] as const satisfies readonly { type: string; priority: Priority }[];
export type EmergencyType = (typeof EMERGENCY_TYPES)[number]['type'];
/** Any type not in the list (a typed one, SPEC's Fire or Hospitalization) is P3, as Other. */
const DEFAULT_PRIORITY: Priority = 3;
const typeKey = (t: string) => t.trim().replace(/\s+/g, ' ').toLowerCase();
const TYPE_PRIORITY = new Map<string, Priority>(EMERGENCY_TYPES.map((t) => [typeKey(t.type), t.priority]));

/** The listed emergency type a text names (its letter case and spacing aside), or null. */
export function knownEmergencyType(text: string | null | undefined): EmergencyType | null {
  const key = typeKey(text ?? '');
  return EMERGENCY_TYPES.find((t) => typeKey(t.type) === key)?.type ?? null;
}

/**
 * The emergency type a description names when the payload has no `caseType`: SPEC's dispatch
 * form sends the chosen type as the whole description ('Heart Attack'); a note may follow it
 * after a separator ('Heart Attack - collapsed at the gym', 'Stroke: face drooping'); SPEC §3's
 * 'Type: ' followed by text up to a comma is read too ('…, Type: Stroke'). Null when none is named.
 */
export function typeFromDescription(description: string | null | undefined): string | null {
  const text = description ?? '';
  const tagged = /Type: ([^,]*)/.exec(text)?.[1].trim();
  if (tagged) return tagged;
  const lead = text.split(/[\n,:;(]| [-–—] /, 1)[0];
  return knownEmergencyType(lead);
}

/** The priority a call gets when its caller names none: from its emergency type (SPEC's payload carries only the type, in the description). */
export const priorityForType = (caseType: string | null | undefined): Priority =>
  TYPE_PRIORITY.get(typeKey(caseType ?? '')) ?? DEFAULT_PRIORITY;

/** One priority's words and targets (seconds), as GET /api/config tells the boards. */
export interface PriorityInfo {
  priority: Priority;
  label: string;
  /** The response target (call received → on scene) at the 90th percentile: amber past 80 % of it, red past it. */
  target_s: number;
  /** The mean response target, when the standard has one. */
  mean_target_s: number | null;
  /** A waiting (pending) call older than this alerts the dispatchers. */
  queue_alert_s: number;
}

/** The steps an assignment goes through, in order; `cancelled` ends one that never cleared. */
export const ASSIGNMENT_STATUSES = ['dispatched', 'en_route', 'on_scene', 'transporting', 'at_hospital', 'handover', 'cleared', 'cancelled'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/**
 * The steps a crew (or staff for them) reports: forward only, a step may be skipped. `handover`
 * (eTimes.12, transfer of care) may also be pressed by the destination hospital's page.
 */
export const UNIT_STEPS = ['en_route', 'on_scene', 'transporting', 'at_hospital', 'handover', 'cleared'] as const;
export type UnitStep = (typeof UNIT_STEPS)[number];

/** The steps whose times follow one another (cancelled stands apart: it ends an assignment from any step). */
export const TIMED_STEPS = ['dispatched', ...UNIT_STEPS] as const;
export type TimedStep = (typeof TIMED_STEPS)[number];

/** Where each step's time is kept on an assignment. */
export const stepTimeKey = <S extends AssignmentStatus>(s: S): `${S}_at` => `${s}_at`;

/** An assignment is open until it clears or is cancelled: its ambulance is busy exactly then. */
export const isOpenAssignment = (s: AssignmentStatus) => s !== 'cleared' && s !== 'cancelled';

/** What an ambulance is doing: free, in maintenance, or its open assignment's step. */
export type UnitStatus = 'available' | 'maintenance' | Exclude<AssignmentStatus, 'cleared' | 'cancelled'>;

/** The NEMSIS element each time is reported as (DOMAIN.md §1). */
export const NEMSIS_TIMES = {
  call_received_at: 'eTimes.01',
  dispatched_at: 'eTimes.03',
  en_route_at: 'eTimes.05',
  on_scene_at: 'eTimes.06',
  transporting_at: 'eTimes.09',
  at_hospital_at: 'eTimes.11',
  handover_at: 'eTimes.12',
  cleared_at: 'eTimes.13',
  cancelled_at: 'eTimes.14',
} as const;

/** NFPA 1710's EMS turnout: an assignment still `dispatched` this long after dispatch is flagged. */
export const TURNOUT_TARGET_S = 60;

/** One unit's part in a call (NEMSIS eResponse.04's record): its own step and times. */
export interface AssignmentDto {
  id: number;
  case_id: string;
  ambulance_id: number | null;
  license_plate: string | null;
  /** The unit's capability when it was dispatched (NEMSIS eResponse.07). */
  capability: Capability;
  /** False only for a responder (a car that cannot convey). */
  can_transport: boolean;
  status: AssignmentStatus;
  dispatched_at: string;
  en_route_at: string | null;
  on_scene_at: string | null;
  transporting_at: string | null;
  at_hospital_at: string | null;
  /** eTimes.12, the transfer of care at the destination: the handover clock runs from at_hospital_at to here. */
  handover_at: string | null;
  cleared_at: string | null;
  cancelled_at: string | null;
  /** Where the unit conveys its patient (eDisposition.01/.20); null until one is chosen. */
  destination: DestinationDto | null;
  /** While transporting to a destination: seconds to arrive there from the unit's latest position (null otherwise). */
  destination_eta_s: number | null;
  /** The unit's latest pre-alert to its destination, in short (its content is on the hospital's page only). */
  prealert?: PrealertSummary | null;
}

/** What a unit-status change answers (REST) and acknowledges (socket), shaped like the position ack. */
/** The body of a unit-status change (unitStatusSchema parses it). */
export interface UnitStatusInput { status: UnitStep; at?: string }

export type UnitStatusAck = { ok: true; assignment: AssignmentDto } | { ok: false; error: string };

/** A call's reported time may lie at most this far back (an operator keeps a call no longer before it is entered). */
export const CALL_RECEIVED_MAX_AGE_MS = 3600_000;
/** Clock skew a caller's "now" may have over the server's before it counts as the future. */
export const CLOCK_SKEW_MS = 5_000;
