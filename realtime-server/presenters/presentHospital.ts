import {
  type Activation, type DestinationReason, type EtaModelParams, type HospitalCapability, type HospitalDto, type HospitalStatus, type HospitalUnitDto,
  type PrealertDto, type PrealertSigns, HOSPITAL_CAPABILITIES, arrivalSeconds, callRef, distanceMeters, type Capability, type AssignmentStatus,
  type DestinationDto,
} from '../contract';
import type { AssignmentRow, HospitalRow, PrealertRow } from '../../db/repositories/types';

function capabilitiesOf(json: string): HospitalCapability[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? HOSPITAL_CAPABILITIES.filter((c) => list.includes(c)) : [];
  } catch {
    return [];
  }
}

export const presentHospital = (h: HospitalRow): HospitalDto => ({
  id: h.id,
  name: h.name,
  address: h.address,
  latitude: Number(h.latitude),
  longitude: Number(h.longitude),
  capabilities: capabilitiesOf(h.capabilities),
  status: h.status as HospitalStatus,
  status_reason: h.status_reason,
  status_updated_at: h.status_updated_at,
  status_updated_by: h.status_updated_by,
  has_link: h.link_hash != null,
});

/** An assignment's destination, or null before one is chosen. */
export const presentDestination = (a: Pick<AssignmentRow, 'destination_hospital_id' | 'destination_name' | 'destination_reason' | 'destination_set_at'>): DestinationDto | null =>
  a.destination_name && a.destination_set_at
    ? { hospital_id: a.destination_hospital_id ?? null, name: a.destination_name, reason: a.destination_reason as DestinationReason, set_at: a.destination_set_at }
    : null;

/** Seconds for a transporting unit to reach its destination from its latest fix, with the arrival model in force; null otherwise. */
export function destinationEta(
  status: string, unit: { latitude?: number | null; longitude?: number | null }, dest: { latitude?: number | null; longitude?: number | null }, model: EtaModelParams | null | undefined,
): number | null {
  if (status !== 'transporting' || !model || unit.latitude == null || unit.longitude == null || dest.latitude == null || dest.longitude == null) return null;
  const s = arrivalSeconds(distanceMeters({ latitude: Number(unit.latitude), longitude: Number(unit.longitude) }, { latitude: Number(dest.latitude), longitude: Number(dest.longitude) }), model);
  return Number.isFinite(s) ? s : null;
}

const NO_SIGNS: PrealertSigns = { hr: null, sbp: null, rr: null, spo2: null, gcs: null, temp: null };

/** A pre-alert; once redacted (RETENTION_DAYS) only its times and activation remain. */
export function presentPrealert(p: PrealertRow): PrealertDto {
  const c = p.content ? JSON.parse(p.content) as Partial<PrealertDto> : {};
  return {
    id: p.id,
    assignment_id: p.assignment_id,
    hospital_id: p.hospital_id,
    age: c.age ?? null,
    sex: c.sex ?? 'unknown',
    time_of_incident: c.time_of_incident ?? null,
    mechanism: c.mechanism ?? '',
    injuries: c.injuries ?? '',
    signs: { ...NO_SIGNS, ...c.signs },
    treatment: c.treatment ?? '',
    requirements: c.requirements ?? '',
    activation: p.activation as Activation,
    sent_at: p.sent_at,
    acknowledged_at: p.acknowledged_at,
    redacted: p.redacted_at != null,
  };
}

/** One unit as its destination hospital's page sees it: no patient name, contact or address. */
export function presentHospitalUnit(
  a: AssignmentRow & { priority: number; unit_latitude: number | null; unit_longitude: number | null; position_at: string | null },
  hospital: Pick<HospitalRow, 'latitude' | 'longitude'>, prealert: PrealertRow | undefined, model: EtaModelParams,
): HospitalUnitDto {
  return {
    assignment_id: a.id,
    call_ref: callRef(a.case_id),
    priority: Number(a.priority),
    license_plate: a.license_plate,
    capability: (a.capability ?? 'als') as Capability,
    status: a.status as AssignmentStatus,
    transporting_at: a.transporting_at,
    at_hospital_at: a.at_hospital_at,
    handover_at: a.handover_at ?? null,
    eta_s: destinationEta(a.status, { latitude: a.unit_latitude, longitude: a.unit_longitude }, hospital, model),
    position_at: a.position_at,
    prealert: prealert ? presentPrealert(prealert) : null,
  };
}
