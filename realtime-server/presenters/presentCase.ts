import {
  type BackupAlert, type CaseDto, type EtaModelParams, backupAnswered, type CaseDtoLocation, type CaseDtoLocationKey, type CaseLocationEvent, type CaseStatus, type IntakeSource, type Priority,
  bestLocation, locationMismatchM, pointWkb,
} from '../contract';
import { presentUnits, primaryOf } from './presentAssignment';
import type { CaseRow } from '../../db/repositories/types';

const num = (v: number | string | null | undefined) => (v == null ? null : Number(v));

/**
 * Every field of a presented case that says where the patient is (contract/privacy.ts classifies them), and
 * only from the case's location columns (CASE_LOCATION_COLUMNS): its two locations and the best known one
 * (contract bestLocation). With those columns cleared, each is null.
 */
export function caseLocations(c: CaseRow): CaseDtoLocation {
  const pLat = num(c.latitude);
  const pLon = num(c.longitude);
  const patient = pLat != null && pLon != null && c.location_at
    ? { latitude: pLat, longitude: pLon, accuracy: c.location_accuracy, updated_at: c.location_at } : null;
  const iLat = num(c.intake_latitude);
  const iLon = num(c.intake_longitude);
  const intake = iLat != null && iLon != null
    ? { latitude: iLat, longitude: iLon, address: c.intake_address ?? `${iLat}, ${iLon}`, source: (c.intake_source ?? 'coordinates') as IntakeSource } : null;
  const best = bestLocation(intake, patient);
  const latitude = best?.latitude ?? null;
  const longitude = best?.longitude ?? null;
  return {
    latitude,
    longitude,
    location_source: best?.source ?? null,
    location_accuracy: c.location_accuracy,
    location_updated_at: c.location_at,
    intake_location: intake,
    patient_location: patient,
    location_mismatch_m: locationMismatchM(intake, patient),
    wkb: latitude != null && longitude != null ? pointWkb(latitude, longitude) : null,
  };
}

/** The call's request for backup while no unit has answered it (contract backupAnswered). */
function openBackupRequest(c: CaseRow, units: CaseDto['assignments']): BackupAlert | null {
  if (!c.backup_request) return null;
  const r = JSON.parse(c.backup_request) as BackupAlert;
  return backupAnswered(r, { status: c.status, assignments: units }) ? null : { ...r, priority: Number(c.priority) as Priority };
}

/** The case's fields that are not its location: typed so that none of the location fields can be set here. */
function caseFacts(c: CaseRow, model?: EtaModelParams | null): Omit<CaseDto, CaseDtoLocationKey> {
  const units = presentUnits(c, model);
  return {
    id: c.id,
    description: c.description,
    status: c.status as CaseStatus,
    priority: Number(c.priority) as Priority,
    call_received_at: c.call_received_at,
    assignment: primaryOf(c, units),
    assignments: units,
    backup_request: openBackupRequest(c, units),
    caseType: c.case_type,
    patientName: c.patient_name,
    patient_name: c.patient_name,
    email: c.patient_email,
    patient_email: c.patient_email,
    operator_id: c.operator_id,
    ambulance_id: c.ambulance_id,
    license_plate: c.license_plate ?? null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    closed_at: c.closed_at,
    version: c.version,
    demo: Boolean(c.demo),
  };
}

/**
 * A case as REST and socket events carry it. With the arrival model in force (`model`), each
 * transporting unit gets its `destination_eta_s`; without it (events after a write, which the
 * boards re-estimate from the live positions with the same model) that stays null.
 */
export const presentCase = (c: CaseRow, model?: EtaModelParams | null): CaseDto => ({ ...caseFacts(c, model), ...caseLocations(c) });

/** After a patient's share: the row holds a patient fix, so every location field is known. */
export const presentCaseLocation = (c: CaseRow): CaseLocationEvent => {
  const where = caseLocations(c);
  return {
    id: c.id,
    latitude: where.latitude!,
    longitude: where.longitude!,
    location_source: where.location_source!,
    location_accuracy: where.location_accuracy,
    location_updated_at: where.location_updated_at!,
    patient_location: where.patient_location!,
    location_mismatch_m: where.location_mismatch_m,
    version: c.version,
  };
};
