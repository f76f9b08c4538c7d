import { z } from 'zod';
import { email, intId, latitude, longitude, singleLine, text } from './common';
import { CASE_STATUSES, type CaseStatus } from './enums';
import { MAX_ACCURACY_M } from './geo';
import { type AssignmentDto, type Priority, CALL_RECEIVED_MAX_AGE_MS, CLOCK_SKEW_MS, priorityForType, typeFromDescription } from './callLife';
import { priority } from './callLifeSchemas';
import type { IntakeLocationDto, LocationSource, PatientLocationDto } from './location';
import { intakeLocationSchema } from './locationSchemas';
import type { CrewNotice } from './tracking';
import type { BackupAlert } from './capabilitySchemas';

const caseType = text().trim().max(40).nullish().transform((v) => v || null);
const description = text().trim().max(2000);
const patientName = singleLine().trim().min(1, 'required').max(200);

/** When the call came in: an ISO time, not in the future (beyond a little clock skew), at most an hour back. */
const callReceivedAt = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
  .refine((v) => Date.parse(v) <= Date.now() + CLOCK_SKEW_MS, { error: 'must not be in the future' })
  .refine((v) => Date.parse(v) >= Date.now() - CALL_RECEIVED_MAX_AGE_MS, { error: 'must be within the last hour' })
  .transform((v) => new Date(Math.min(Date.parse(v), Date.now())).toISOString());

/**
 * A waiting (pending) call has no ambulance: the one rule for a new case and an edit alike
 * (a payload naming both is a contradiction, refused with 400 before anything is read or written).
 */
function refusePendingWithAmbulance(status: string | undefined, ambulanceId: number | null | undefined, ctx: z.RefinementCtx) {
  if (status === 'pending' && ambulanceId != null) {
    ctx.addIssue({ code: 'custom', path: ['status'], message: 'a pending call waits without an ambulance; leave the ambulance out or make it active' });
  }
}

/**
 * Case-creation payload of SPEC.md §3 (POST /live-location) and the case form of
 * POST /api/cases. The patient's e-mail arrives as `to`, `email` or `patient_email`,
 * the ambulance id as `license_plate` or `ambulance_id`.
 */
export const caseCreateSchema = z.object({
  operator_id: intId().optional(),
  to: email().optional(),
  email: email().optional(),
  patient_email: email().optional(),
  /** `pending`: a waiting call, taken with no ambulance (none free, or held on purpose). */
  status: z.enum(['active', 'pending'], { error: 'a new case is active, or pending while it waits for an ambulance' }).default('active'),
  priority: priority().optional(),
  call_received_at: callReceivedAt.optional(),
  patientName,
  description: description.min(1, 'required'),
  caseType,
  license_plate: intId().optional(),
  ambulance_id: intId().optional(),
  /** Where the call is, as taken on the phone (optional: a call without a known location can still be dispatched). */
  intake_location: intakeLocationSchema.nullish(),
}).transform((v, ctx) => {
  const patientEmail = v.to ?? v.email ?? v.patient_email;
  if (!patientEmail) ctx.addIssue({ code: 'custom', path: ['to'], message: 'required' });
  const ambulanceId = v.ambulance_id ?? v.license_plate ?? null;
  refusePendingWithAmbulance(v.status, ambulanceId, ctx);
  return {
    status: v.status,
    // SPEC's payload may name the type only inside the description ('…, Type: Stroke').
    priority: v.priority ?? priorityForType(v.caseType ?? typeFromDescription(v.description)),
    callReceivedAt: v.call_received_at ?? null,
    operatorId: v.operator_id ?? null,
    patientEmail: patientEmail ?? '',
    patientName: v.patientName,
    description: v.description,
    caseType: v.caseType,
    ambulanceId,
    intake: v.intake_location ?? null,
  };
});
export type CaseCreateInput = z.infer<typeof caseCreateSchema>;

/** PUT /api/cases/{id}: any subset of the edit-case form; unknown keys are ignored. */
export const caseUpdateSchema = z.object({
  patientName: patientName.optional(),
  patient_name: patientName.optional(),
  email: email().optional(),
  patient_email: email().optional(),
  description: description.optional(),
  status: z.enum(CASE_STATUSES, { error: `must be one of ${CASE_STATUSES.join(', ')}` }).optional(),
  caseType: caseType.optional(),
  priority: priority().optional(),
  ambulance_id: z.union([z.literal(''), z.null(), intId()]).transform((v) => (v === '' ? null : v)).optional(),
  /** A new intake location, or null to forget it. */
  intake_location: intakeLocationSchema.nullable().optional(),
}).transform((v, ctx) => {
  refusePendingWithAmbulance(v.status, v.ambulance_id, ctx);
  return {
    patientName: v.patientName ?? v.patient_name,
    patientEmail: v.email ?? v.patient_email,
    description: v.description,
    status: v.status,
    caseType: v.caseType,
    priority: v.priority,
    ambulanceId: v.ambulance_id,
    intake: v.intake_location,
  };
});
export type CaseUpdateInput = z.infer<typeof caseUpdateSchema>;

/** POST /api/location/{caseId}: the patient's shared position. */
export const shareLocationSchema = z.object({
  latitude: latitude(),
  longitude: longitude(),
  accuracy: z.number().finite().min(0).max(MAX_ACCURACY_M).optional(),
});
export type ShareLocationInput = z.infer<typeof shareLocationSchema>;

export interface CaseDto {
  id: string;
  description: string;
  status: CaseStatus;
  /** 1 (most urgent) to 4. */
  priority: Priority;
  /** When the call reached the centre (NEMSIS eTimes.01). */
  call_received_at: string;
  /**
   * The primary unit's assignment (contract primaryAssignment: the one conveying, else the first
   * dispatched still open, else the last), null when the call never had one. `ambulance_id` and
   * `license_plate` name the same unit while it is on the call.
   */
  assignment: AssignmentDto | null;
  /** Every unit's assignment to this call, open ones first, each group in dispatch order. */
  assignments: AssignmentDto[];
  /** A crew's request for backup that no unit has answered yet (contract backupAnswered); null otherwise. */
  backup_request: BackupAlert | null;
  caseType: string | null;
  patientName: string;
  patient_name: string;
  email: string;
  patient_email: string;
  operator_id: number | null;
  ambulance_id: number | null;
  license_plate: string | null;
  /** The best known location (contract bestLocation): the patient's fix when it is accurate, else the intake one. */
  latitude: number | null;
  longitude: number | null;
  /** Which one `latitude`/`longitude` are; null without either. */
  location_source: LocationSource | null;
  /** The patient's shared fix's accuracy and time (null until the patient shares), whichever location is best. */
  location_accuracy: number | null;
  location_updated_at: string | null;
  /** The location taken on the phone. */
  intake_location: IntakeLocationDto | null;
  /** The patient's shared GPS fix. */
  patient_location: PatientLocationDto | null;
  /** Metres between intake and patient locations when they lie more than LOCATION_MISMATCH_M apart; else null. */
  location_mismatch_m: number | null;
  /** Hex EWKB point (SRID 4326) of the best known location, when there is one. */
  wkb: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  version: number;
  /** Generated demo history (SEED=demo's past calls), never a real call. */
  demo: boolean;
}

/**
 * A created case and the patient's location link (`/location/{caseId}?t=TOKEN`): its token is
 * the only thing that lets a caller share the patient's position, and it is answered only here.
 * POST /live-location answers these with `caseId`; POST /api/cases answers them as they are.
 */
/** GET /api/cases/{id}: the case and every assignment it had, the first first. */
export interface CaseDetail {
  case: CaseDto;
  assignments: AssignmentDto[];
}

export interface CaseCreated {
  case: CaseDto;
  locationLink: string;
  /** A case created with an ambulance: what its crew was told (their driver link mailed, or why not); null for a waiting call. */
  crew?: CrewNotice | null;
}

/**
 * GET /api/location/{caseId}?t=TOKEN: the patient's page asks at load whether its link can
 * still share. Only that, and whether the call still waits for an ambulance (the link shares
 * then too): a wrong link is 404 'Case not found', a call that ended (closed, resolved) 410.
 */
export interface LocationLinkState {
  active: true;
  /** The call waits for an ambulance (pending): help is being arranged. */
  waiting: boolean;
}

/** POST /live-location: the created case, its id (SPEC §7) and the patient's location link. */
export interface LiveLocationResponse extends CaseCreated { caseId: string }

/** case.location: the patient shared a fix; the case's location fields as they now are. */
export interface CaseLocationEvent {
  id: string;
  latitude: number;
  longitude: number;
  location_source: LocationSource;
  location_accuracy: number | null;
  location_updated_at: string;
  patient_location: PatientLocationDto;
  location_mismatch_m: number | null;
  version: number;
}
