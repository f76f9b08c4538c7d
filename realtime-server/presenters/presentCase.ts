import { type CaseDto, type CaseLocationEvent, type CaseStatus, type Priority, pointWkb } from '../contract';
import { presentJoinedAssignment } from './presentAssignment';
import type { CaseRow } from '../../db/repositories/types';

const num = (v: number | string | null) => (v == null ? null : Number(v));

export const presentCase = (c: CaseRow): CaseDto => {
  const latitude = num(c.latitude);
  const longitude = num(c.longitude);
  return {
    id: c.id,
    description: c.description,
    status: c.status as CaseStatus,
    priority: Number(c.priority) as Priority,
    call_received_at: c.call_received_at,
    assignment: presentJoinedAssignment(c),
    caseType: c.case_type,
    patientName: c.patient_name,
    patient_name: c.patient_name,
    email: c.patient_email,
    patient_email: c.patient_email,
    operator_id: c.operator_id,
    ambulance_id: c.ambulance_id,
    license_plate: c.license_plate ?? null,
    latitude,
    longitude,
    location_accuracy: c.location_accuracy,
    location_updated_at: c.location_at,
    wkb: latitude != null && longitude != null ? pointWkb(latitude, longitude) : null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    closed_at: c.closed_at,
    version: c.version,
  };
};

export const presentCaseLocation = (c: CaseRow): CaseLocationEvent => ({
  id: c.id,
  latitude: Number(c.latitude),
  longitude: Number(c.longitude),
  location_accuracy: c.location_accuracy,
  location_updated_at: c.location_at!,
  version: c.version,
});
