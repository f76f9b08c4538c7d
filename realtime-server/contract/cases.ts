import { z } from 'zod';
import { email, intId, latitude, longitude, singleLine, text } from './common';
import { CASE_STATUSES, type CaseStatus } from './enums';
import { MAX_ACCURACY_M } from './geo';

const caseType = text().trim().max(40).nullish().transform((v) => v || null);
const description = text().trim().max(2000);
const patientName = singleLine().trim().min(1, 'required').max(200);

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
  status: z.literal('active', { error: 'a new case is always active' }).default('active'),
  patientName,
  description: description.min(1, 'required'),
  caseType,
  license_plate: intId().optional(),
  ambulance_id: intId().optional(),
}).transform((v, ctx) => {
  const patientEmail = v.to ?? v.email ?? v.patient_email;
  if (!patientEmail) ctx.addIssue({ code: 'custom', path: ['to'], message: 'required' });
  return {
    operatorId: v.operator_id ?? null,
    patientEmail: patientEmail ?? '',
    patientName: v.patientName,
    description: v.description,
    caseType: v.caseType,
    ambulanceId: v.ambulance_id ?? v.license_plate ?? null,
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
  ambulance_id: z.union([z.literal(''), z.null(), intId()]).transform((v) => (v === '' ? null : v)).optional(),
}).transform((v) => ({
  patientName: v.patientName ?? v.patient_name,
  patientEmail: v.email ?? v.patient_email,
  description: v.description,
  status: v.status,
  caseType: v.caseType,
  ambulanceId: v.ambulance_id,
}));
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
  caseType: string | null;
  patientName: string;
  patient_name: string;
  email: string;
  patient_email: string;
  operator_id: number | null;
  ambulance_id: number | null;
  license_plate: string | null;
  latitude: number | null;
  longitude: number | null;
  location_accuracy: number | null;
  location_updated_at: string | null;
  /** Hex EWKB point (SRID 4326) of the shared location, when there is one. */
  wkb: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  version: number;
}

/**
 * A created case and the patient's location link (`/location/{caseId}?t=TOKEN`): its token is
 * the only thing that lets a caller share the patient's position, and it is answered only here.
 * POST /live-location answers these with `caseId`; POST /api/cases answers them as they are.
 */
export interface CaseCreated {
  case: CaseDto;
  locationLink: string;
}

/**
 * GET /api/location/{caseId}?t=TOKEN: the patient's page asks at load whether its link can
 * still share. Only that: a wrong link is 404 'Case not found', a case no longer active 410.
 */
export interface LocationLinkState { active: true }

/** POST /live-location: the created case, its id (SPEC §7) and the patient's location link. */
export interface LiveLocationResponse extends CaseCreated { caseId: string }

export interface CaseLocationEvent {
  id: string;
  latitude: number;
  longitude: number;
  location_accuracy: number | null;
  location_updated_at: string;
  version: number;
}
