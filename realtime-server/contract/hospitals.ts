import type { Capability } from './capability';
import type { AssignmentStatus } from './callLife';

/**
 * The hospital end of a call (issue 30, DOMAIN.md §6): where a unit conveys its patient
 * (NEMSIS eDisposition.01/.20), the pre-arrival alert the hospital acknowledges (ATMIST;
 * eDisposition.24/.25), and the handover (eTimes.11 arrived → eTimes.12 transfer of care).
 */

/** What a hospital can take (eDisposition.23's capabilities). */
export const HOSPITAL_CAPABILITIES = ['stroke', 'pci', 'trauma', 'paediatrics', 'maternity', 'burns'] as const;
export type HospitalCapability = (typeof HOSPITAL_CAPABILITIES)[number];
export const HOSPITAL_CAPABILITY_LABELS: Record<HospitalCapability, string> = {
  stroke: 'Stroke', pci: 'Heart attack (PCI)', trauma: 'Trauma', paediatrics: 'Paediatrics', maternity: 'Maternity', burns: 'Burns',
};

/** Open, or on diversion: asks crews to take patients elsewhere (a crew may still choose it, with a reason). */
export const HOSPITAL_STATUSES = ['open', 'diversion'] as const;
export type HospitalStatus = (typeof HOSPITAL_STATUSES)[number];

/** eDisposition.20, the reason for choosing the destination. */
export const DESTINATION_REASONS = ['closest', 'specialty', 'protocol', 'patient_choice', 'diversion', 'other'] as const;
export type DestinationReason = (typeof DESTINATION_REASONS)[number];
export const DESTINATION_REASON_LABELS: Record<DestinationReason, string> = {
  closest: 'Closest', specialty: 'Specialty centre', protocol: 'Protocol', patient_choice: "Patient's choice", diversion: 'Diversion', other: 'Other',
};

/** eDisposition.24, the pre-arrival alert or team activation. */
export const ACTIVATIONS = ['none', 'stemi', 'stroke', 'trauma', 'cardiac_arrest', 'sepsis', 'other'] as const;
export type Activation = (typeof ACTIVATIONS)[number];
export const ACTIVATION_LABELS: Record<Activation, string> = {
  none: 'No activation', stemi: 'STEMI', stroke: 'Stroke', trauma: 'Trauma', cardiac_arrest: 'Cardiac arrest', sepsis: 'Sepsis', other: 'Other',
};

export const PATIENT_SEXES = ['female', 'male', 'unknown'] as const;
export type PatientSex = (typeof PATIENT_SEXES)[number];

export interface HospitalDto {
  id: number;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  capabilities: HospitalCapability[];
  status: HospitalStatus;
  /** Why the hospital is on diversion (or reopened); null when nobody said. */
  status_reason: string | null;
  status_updated_at: string;
  /** Who set the status: a staff member's name, or "Hospital" for its own page. */
  status_updated_by: string | null;
  /** Whether a hospital link has been made (the link itself is answered once, never again). */
  has_link: boolean;
}

/** An assignment's destination (eDisposition.01 name, .20 reason). */
export interface DestinationDto {
  hospital_id: number | null;
  /** The hospital's name when chosen: a report still names it after the hospital is deleted. */
  name: string;
  reason: DestinationReason;
  set_at: string;
}

/** Vital signs of an ATMIST pre-alert; each may be unknown. */
export interface PrealertSigns {
  hr: number | null; sbp: number | null; rr: number | null; spo2: number | null; gcs: number | null; temp: number | null;
}

/** A pre-arrival alert (ATMIST) of one assignment to its destination. */
export interface PrealertDto {
  id: number;
  assignment_id: number;
  hospital_id: number | null;
  age: number | null;
  sex: PatientSex;
  time_of_incident: string | null;
  mechanism: string;
  injuries: string;
  signs: PrealertSigns;
  treatment: string;
  requirements: string;
  activation: Activation;
  /** eDisposition.25: when it was sent. */
  sent_at: string;
  acknowledged_at: string | null;
  /** Whether the content was taken out after RETENTION_DAYS (the times stay for reports). */
  redacted: boolean;
}

/** A unit's latest pre-alert as its call's card and crew see it: sent, and acknowledged or not. */
export interface PrealertSummary { id: number; activation: Activation; sent_at: string; acknowledged_at: string | null }

/** A hospital suggested for a conveyance: open ones by arrival, a diverting one flagged and ranked after them. */
export interface HospitalSuggestion {
  hospital: HospitalDto;
  distance_m: number;
  eta_s: number;
  /** Every need asked for is one of the hospital's capabilities. */
  meets_needs: boolean;
  /** The needs it lacks, in HOSPITAL_CAPABILITIES order. */
  missing: HospitalCapability[];
  diversion: boolean;
}
export interface HospitalSuggestionsResponse { suggestions: HospitalSuggestion[] }

/** One unit as the hospital's page sees it: no patient name, contact or address. */
export interface HospitalUnitDto {
  assignment_id: number;
  /** A short call id (the first 8 characters of the case id). */
  call_ref: string;
  priority: number;
  license_plate: string | null;
  capability: Capability;
  status: AssignmentStatus;
  transporting_at: string | null;
  at_hospital_at: string | null;
  handover_at: string | null;
  /** While transporting: the arrival estimate at the hospital, from the unit's latest position. */
  eta_s: number | null;
  position_at: string | null;
  prealert: PrealertDto | null;
}

/** GET /api/hospital/{id}?t=…: the hospital's own page. */
export interface HospitalPageDto {
  hospital: Pick<HospitalDto, 'id' | 'name' | 'address' | 'capabilities' | 'status' | 'status_reason' | 'status_updated_at' | 'status_updated_by'>;
  inbound: HospitalUnitDto[];
  arrived: HospitalUnitDto[];
  server_time: string;
}

/** A call leaves the hospital's page this long after its handover (or after the unit cleared without one). */
export const HOSPITAL_PAGE_KEEP_MS = 3600_000;

/** NHS handover standard and contract thresholds (minutes) by default: HANDOVER_TARGETS. */
export const DEFAULT_HANDOVER_TARGETS = [15, 30, 45, 60] as const;

/** Where a handover clock stands against the targets: within the first, past the 1st, 2nd, 3rd (release to respond) or 4th. */
export type HandoverBand = 0 | 1 | 2 | 3 | 4;

/** The band of a handover clock at `elapsedS` seconds, against targets in minutes (ascending). */
export function handoverBand(elapsedS: number, targets: readonly number[]): HandoverBand {
  let band = 0;
  for (const t of targets.slice(0, 4)) if (elapsedS >= t * 60) band += 1;
  return band as HandoverBand;
}

/** The words of a band, so the colour is never the only sign. */
export function handoverBandText(band: HandoverBand, targets: readonly number[]): string {
  if (band === 0) return `Within ${targets[0]} min`;
  if (band === 3) return `Past ${targets[2]} min: release to respond`;
  return `Past ${targets[band - 1]} min`;
}

/** The prompt a dispatcher gets at the third threshold (45 min by default). */
export const releaseToRespondText = (plate: string, hospital: string, minutes: number) => `Release to respond: ${plate} at ${hospital} ${minutes} min`;

/** The steps in which a unit is conveying to its destination, or at it before handover. */
export const INBOUND_STEPS: readonly AssignmentStatus[] = ['transporting'];
export const ARRIVED_STEPS: readonly AssignmentStatus[] = ['at_hospital', 'handover'];

/** What a call's emergency type asks of the hospital it goes to (none for most): the suggestions' `needs`. */
export function needsForType(caseType: string | null | undefined): HospitalCapability[] {
  const t = (caseType ?? '').trim().toLowerCase();
  if (t === 'stroke') return ['stroke'];
  if (t === 'heart attack' || t === 'cardiac arrest') return ['pci'];
  if (t === 'accident' || t === 'injury') return ['trauma'];
  return [];
}

/** A short call id for a page that must not show more (the hospital's). */
export const callRef = (caseId: string) => caseId.slice(0, 8);

/** `prealert.late` to staff: a pre-alert nobody acknowledged in time; the dispatcher phones the hospital. */
export interface PrealertLateAlert {
  prealert_id: number;
  case_id: string;
  assignment_id: number;
  hospital_id: number | null;
  hospital: string;
  license_plate: string;
  priority: number;
  activation: string;
  sent_at: string;
  alerted_at: string;
}

/** `prealert.acknowledged` to staff. */
export interface PrealertAckNotice {
  prealert_id: number; case_id: string; assignment_id: number; hospital_id: number; hospital: string; acknowledged_at: string;
}

/** "Phone Royal General: the pre-alert for AMB-1001 is not acknowledged" */
export const prealertLateText = (a: Pick<PrealertLateAlert, 'hospital' | 'license_plate'>) =>
  `Phone ${a.hospital}: the pre-alert for ${a.license_plate} is not acknowledged`;
