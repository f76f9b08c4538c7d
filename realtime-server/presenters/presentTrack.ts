import type { LinkRole, Priority, SharedPosition, TrackDestination, TrackResponse, TrailPoint } from '../contract';
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
}

const patientOf = (c: CaseRow): SharedPosition | null =>
  c.latitude != null && c.longitude != null && c.location_at
    ? { latitude: Number(c.latitude), longitude: Number(c.longitude), accuracy: c.location_accuracy, updated_at: c.location_at }
    : null;

/** The best known location: with no patient fix yet, the crew still drives to the address taken on the phone. */
function destinationOf(c: CaseRow): TrackDestination | null {
  const where = caseLocations(c);
  if (where.latitude == null || where.longitude == null || !where.location_source) return null;
  const address = where.location_source === 'intake' ? where.intake_location?.address ?? null : null;
  return { latitude: where.latitude, longitude: where.longitude, source: where.location_source, address };
}

/** The case's assignment when it is this ambulance's (a reassigned case's new crew is none of this link's business). */
const assignmentOf = (a: AmbulanceRow, c: CaseRow) => {
  const assignment = presentJoinedAssignment(c);
  return assignment?.ambulance_id === a.id ? assignment : null;
};

export const presentTrack = ({ ambulance: a, case: c, trail, role, etaSpeedKmh }: TrackView): TrackResponse => ({
  ambulanceId: a.id,
  license_plate: a.license_plate,
  latitude: a.latitude == null ? null : Number(a.latitude),
  longitude: a.longitude == null ? null : Number(a.longitude),
  updated_at: a.position_at,
  trail,
  case: { id: c.id, status: c.status, patientName: c.patient_name, description: c.description },
  patient: patientOf(c),
  etaSpeedKmh,
  role,
  // The crew's step button needs these; the patient's tracking link gets nothing new.
  ...(role === 'driver' ? { priority: c.priority as Priority, assignment: assignmentOf(a, c), destination: destinationOf(c) } : {}),
});
