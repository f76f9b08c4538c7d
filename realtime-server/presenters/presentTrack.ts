import {
  type AssignmentDto, isOpenAssignment, needsForType, typeFromDescription,
} from '../contract';
import type {
  CaseDto, EtaModelParams, LinkRole, PositionDto, TrackCaseUpdate, TrackDestination, TrackPosition, TrackResponse, TrailPoint,
} from '../contract';
import { presentCase } from './presentCase';
import type { AmbulanceRow, CaseRow } from '../../db/repositories/types';

/**
 * What a tracking or driver link may see, on every channel: GET /api/track's answer and every event
 * its socket hears (realtime/eventRouter.ts, positionFanout.ts) are made here and nowhere else, so
 * which of a case's fields a forwarded link may read is decided once.
 */
export interface TrackView {
  ambulance: AmbulanceRow;
  case: CaseRow;
  trail: TrailPoint[];
  role: LinkRole;
  etaSpeedKmh: number;
  /** The arrival model in force (services/dispatchSuggestions.ts etaModel). */
  etaModel: EtaModelParams;
}

/**
 * The best known location: with no patient fix yet, the crew still drives to the address taken on
 * the phone and the tracking page estimates to it. The place text is the driver's only.
 */
function destinationOf(c: CaseDto, role: LinkRole): TrackDestination | null {
  if (c.latitude == null || c.longitude == null || !c.location_source) return null;
  const address = role === 'driver' && c.location_source === 'intake' ? c.intake_location?.address ?? null : null;
  return { latitude: c.latitude, longitude: c.longitude, source: c.location_source, address };
}

/** This ambulance's assignment to the case: its open one, else its last (a unit sent twice to one call has two). */
export const unitAssignment = (c: Pick<CaseDto, 'assignments'>, ambulanceId: number): AssignmentDto | null =>
  c.assignments.find((a) => a.ambulance_id === ambulanceId && isOpenAssignment(a.status))
  ?? c.assignments.filter((a) => a.ambulance_id === ambulanceId).sort((a, b) => b.id - a.id)[0] ?? null;

/**
 * The case as a link of `ambulanceId` sees it, from the same CaseDto staff get: its words and state,
 * the patient's own shared position, this ambulance's step and the destination; the driver also the
 * priority and its own assignment (a reassigned case's new crew is none of this link's business).
 * GET /api/track answers these fields, and `track.case` carries exactly them.
 */
export const presentTrackUpdate = (c: CaseDto, ambulanceId: number, role: LinkRole): TrackCaseUpdate => {
  const assignment = unitAssignment(c, ambulanceId);
  const others = c.assignments.filter((a) => a.ambulance_id !== ambulanceId)
    .map((a) => ({ license_plate: a.license_plate, capability: a.capability, can_transport: a.can_transport, status: a.status }));
  return {
    ambulanceId,
    case: { id: c.id, status: c.status, patientName: c.patient_name, description: c.description },
    patient: c.patient_location,
    unit_status: assignment?.status ?? null,
    destination: destinationOf(c, role),
    // The crew's step button needs these; the patient's tracking link gets nothing more.
    ...(role === 'driver' ? { priority: c.priority, assignment, units: others, hospital_needs: needsForType(c.caseType ?? typeFromDescription(c.description)) } : {}),
  };
};

export const presentTrack = ({ ambulance: a, case: c, trail, role, etaSpeedKmh, etaModel }: TrackView): TrackResponse => ({
  ...presentTrackUpdate(presentCase(c), a.id, role),
  license_plate: a.license_plate,
  latitude: a.latitude == null ? null : Number(a.latitude),
  longitude: a.longitude == null ? null : Number(a.longitude),
  updated_at: a.position_at,
  trail,
  etaSpeedKmh,
  eta_model: { road_factor: etaModel.road_factor, speed_kmh: etaModel.speed_kmh },
  role,
});

/** `track.position`: a new position of a link's ambulance as a point of its trail (not its source, battery or heading). */
export const presentTrackPosition = (p: PositionDto): TrackPosition =>
  ({ ambulanceId: p.ambulanceId, latitude: p.latitude, longitude: p.longitude, recorded_at: p.recorded_at });
