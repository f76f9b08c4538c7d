import { type Activation, type AssignmentDto, type AssignmentStatus, type Capability, type EtaModelParams, canTransport, primaryAssignment, unitsInOrder } from '../contract';
import type { AssignmentRow, CaseRow, DestinationPoints, UnitJson } from '../../db/repositories/types';
import { destinationEta, presentDestination } from './presentHospital';

/**
 * One unit's part in a call. `destination_eta_s` needs the unit's latest fix and its destination's
 * point on the row (a case's `units` carry them while transporting) and the arrival model in force.
 */
export const presentAssignment = (a: Omit<AssignmentRow, 'case_id'> & { case_id: string } & DestinationPoints, model?: EtaModelParams | null): AssignmentDto => ({
  id: a.id,
  case_id: a.case_id,
  ambulance_id: a.ambulance_id,
  license_plate: a.license_plate,
  capability: (a.capability ?? 'als') as Capability,
  can_transport: canTransport(a.capability ?? 'als'),
  status: a.status as AssignmentStatus,
  dispatched_at: a.dispatched_at,
  en_route_at: a.en_route_at,
  on_scene_at: a.on_scene_at,
  transporting_at: a.transporting_at,
  at_hospital_at: a.at_hospital_at,
  handover_at: a.handover_at ?? null,
  cleared_at: a.cleared_at,
  cancelled_at: a.cancelled_at,
  destination: presentDestination(a),
  destination_eta_s: destinationEta(a.status, { latitude: a.unit_latitude, longitude: a.unit_longitude },
    { latitude: a.destination_latitude, longitude: a.destination_longitude }, model),
  prealert: a.prealert_id != null && a.prealert_sent_at
    ? { id: Number(a.prealert_id), activation: a.prealert_activation as Activation, sent_at: a.prealert_sent_at, acknowledged_at: a.prealert_acknowledged_at ?? null }
    : null,
});

/** Every assignment a case row carries (`units`), open first, then in dispatch order. */
export function presentUnits(c: CaseRow, model?: EtaModelParams | null): AssignmentDto[] {
  const raw = c.units == null ? [] : typeof c.units === 'string' ? JSON.parse(c.units) as UnitJson[] : c.units;
  return unitsInOrder(raw.map((u) => presentAssignment({ ...u, case_id: c.id }, model)));
}

/** The case's primary assignment among its units: the one `assignment_id` names, else the contract's rule. */
export const primaryOf = (c: CaseRow, units: AssignmentDto[]): AssignmentDto | null =>
  units.find((u) => u.id === Number(c.assignment_id)) ?? primaryAssignment(units);
