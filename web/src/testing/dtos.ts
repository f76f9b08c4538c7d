import type { AmbulanceDto, CaseDto } from '../api/contract';

/** A complete CaseDto (an open call, nothing assigned, no location) with `over` on top: a test names only what it is about. */
export const caseDto = (over: Partial<CaseDto> = {}): CaseDto => ({
  id: 'c1', description: '', status: 'active', caseType: null, patientName: 'P', patient_name: 'P', email: 'p@x.test',
  priority: 3, call_received_at: '2026-01-01T00:00:00Z', assignment: null, assignments: [], backup_request: null,
  patient_email: 'p@x.test', operator_id: 1, ambulance_id: null, license_plate: null, latitude: null, longitude: null,
  location_accuracy: null, location_updated_at: null, wkb: null, location_source: null, intake_location: null, patient_location: null, location_mismatch_m: null, demo: false, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
  closed_at: null, version: 1, ...over,
});

/** A complete AmbulanceDto (available, no fix) with `over` on top. */
export const ambulanceDto = (over: Partial<AmbulanceDto> = {}): AmbulanceDto => ({
  id: 1, license_plate: 'A1', status: 'available', email: null, capability: 'als', can_transport: true, unit_status: 'available', unit_status_since: null, location: null, created_at: '', updated_at: '', version: 1, ...over,
});
