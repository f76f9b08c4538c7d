import type {
  AssignmentDto, CaseDto, EtaModelParams, LinkRole, Priority, SharedPosition, TrackCaseUpdate, TrackDestination, TrackResponse, TrailPoint,
} from '../contract';
import { presentJoinedAssignment } from './presentAssignment';
import { caseLocations } from './presentCase';
import type { AmbulanceRow, CaseRow } from '../../db/repositories/types';

/** What a tracking or driver link may see: where the ambulance is and has been, its case, and the patient's shared position (and, for the driver, where to go). */
export interface TrackView {
  ambulance: AmbulanceRow;
  case: CaseRow;
  trail: TrailPoint[];
  role: LinkRole;
  etaSpeedKmh: number;
  /** The arrival model in force (services/dispatchSuggestions.ts etaModel). */
  etaModel: EtaModelParams;
}

const patientOf = (c: CaseRow): SharedPosition | null =>
  c.latitude != null && c.longitude != null && c.location_at
    ? { latitude: Number(c.latitude), longitude: Number(c.longitude), accuracy: c.location_accuracy, updated_at: c.location_at }
    : null;

type Where = Pick<CaseDto, 'latitude' | 'longitude' | 'location_source' | 'intake_location'>;

/**
 * The best known location: with no patient fix yet, the crew still drives to the address taken on
 * the phone and the tracking page estimates to it. The place text is the driver's only.
 */
function destinationOf(where: Where, role: LinkRole): TrackDestination | null {
  if (where.latitude == null || where.longitude == null || !where.location_source) return null;
  const address = role === 'driver' && where.location_source === 'intake' ? where.intake_location?.address ?? null : null;
  return { latitude: where.latitude, longitude: where.longitude, source: where.location_source, address };
}

/** The case's assignment when it is this ambulance's (a reassigned case's new crew is none of this link's business). */
const ownAssignment = (ambulanceId: number, assignment: AssignmentDto | null) => (assignment?.ambulance_id === ambulanceId ? assignment : null);

export const presentTrack = ({ ambulance: a, case: c, trail, role, etaSpeedKmh, etaModel }: TrackView): TrackResponse => {
  const assignment = ownAssignment(a.id, presentJoinedAssignment(c));
  return {
    ambulanceId: a.id,
    license_plate: a.license_plate,
    latitude: a.latitude == null ? null : Number(a.latitude),
    longitude: a.longitude == null ? null : Number(a.longitude),
    updated_at: a.position_at,
    trail,
    case: { id: c.id, status: c.status, patientName: c.patient_name, description: c.description },
    patient: patientOf(c),
    etaSpeedKmh,
    eta_model: { road_factor: etaModel.road_factor, speed_kmh: etaModel.speed_kmh },
    unit_status: assignment?.status ?? null,
    role,
    destination: destinationOf(caseLocations(c), role),
    // The crew's step button needs these; the patient's tracking link gets nothing more.
    ...(role === 'driver' ? { priority: c.priority as Priority, assignment } : {}),
  };
};

/**
 * `track.case` for the links of `ambulanceId` on a changed case (realtime/eventRouter.ts), from the
 * same CaseDto staff get: what presentTrack answers about the case, for that role, nothing more.
 */
export const presentTrackUpdate = (c: CaseDto, ambulanceId: number, role: LinkRole): TrackCaseUpdate => {
  const assignment = ownAssignment(ambulanceId, c.assignment);
  return {
    ambulanceId,
    case: { id: c.id, status: c.status, patientName: c.patient_name, description: c.description },
    unit_status: assignment?.status ?? null,
    destination: destinationOf(c, role),
    ...(role === 'driver' ? { priority: c.priority, assignment } : {}),
  };
};
