import type { AssignmentDto, AssignmentStatus } from '../contract';
import type { AssignmentRow, CaseRow } from '../../db/repositories/types';

export const presentAssignment = (a: AssignmentRow): AssignmentDto => ({
  id: a.id,
  case_id: a.case_id,
  ambulance_id: a.ambulance_id,
  license_plate: a.license_plate,
  status: a.status as AssignmentStatus,
  dispatched_at: a.dispatched_at,
  en_route_at: a.en_route_at,
  on_scene_at: a.on_scene_at,
  transporting_at: a.transporting_at,
  at_hospital_at: a.at_hospital_at,
  cleared_at: a.cleared_at,
  cancelled_at: a.cancelled_at,
});

/** The current assignment a case row carries joined (`a_…` columns), or null. */
export const presentJoinedAssignment = (c: CaseRow): AssignmentDto | null =>
  c.a_id == null
    ? null
    : presentAssignment({
      id: c.a_id, case_id: c.id, ambulance_id: c.a_ambulance_id ?? null, license_plate: c.a_license_plate ?? '', status: c.a_status ?? 'dispatched',
      dispatched_at: c.a_dispatched_at ?? '', en_route_at: c.a_en_route_at ?? null, on_scene_at: c.a_on_scene_at ?? null,
      transporting_at: c.a_transporting_at ?? null, at_hospital_at: c.a_at_hospital_at ?? null, cleared_at: c.a_cleared_at ?? null,
      cancelled_at: c.a_cancelled_at ?? null,
    });
