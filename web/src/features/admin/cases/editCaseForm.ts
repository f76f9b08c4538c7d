import { CASE_STATUSES, type AmbulanceDto, type CaseDto } from '../../../api/contract';

/** The Edit Case form as typed; the ambulance select holds the id as text, '' for none. */
export interface EditCaseForm {
  patientName: string;
  email: string;
  description: string;
  status: string;
  ambulance_id: string;
}

export const STATUS_OPTIONS = CASE_STATUSES.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));

/** Prefilled from the case; an empty status defaults to active (SPEC §4). */
export function formFromCase(c: CaseDto): EditCaseForm {
  return {
    patientName: c.patientName || c.patient_name || '',
    email: c.email || c.patient_email || '',
    description: c.description ?? '',
    status: c.status || 'active',
    ambulance_id: c.ambulance_id == null ? '' : String(c.ambulance_id),
  };
}

/** Body of PUT /api/cases/{id}. */
export function editCaseBody(f: EditCaseForm) {
  return {
    patientName: f.patientName.trim(),
    email: f.email.trim(),
    description: f.description.trim(),
    status: f.status,
    ambulance_id: f.ambulance_id === '' ? null : Number(f.ambulance_id),
  };
}

/** Ambulances listed by license plate. */
export const byPlate = (list: AmbulanceDto[]) =>
  [...list].sort((a, b) => a.license_plate.localeCompare(b.license_plate, undefined, { numeric: true }));
