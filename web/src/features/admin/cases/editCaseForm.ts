import { CASE_STATUSES, type AmbulanceDto, type CaseDto, type LatLon } from '../../../api/contract';
import { availableByDistance, plateWithDistance } from '../../../domain/nearest';

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

export interface AmbulanceOption { value: string; label: string }

const CURRENT = ' (Currently assigned)';

/**
 * The Assigned Ambulance options after 'Select an ambulance'. Without a known case location:
 * every ambulance by plate (SPEC §2). With one: the available ambulances and the one the
 * case holds, nearest first with their distance ('TS09 EA 1003 — 1.2 km'), then every other
 * ambulance by plate. The case's own ambulance keeps its '(Currently assigned)' suffix, and
 * stays listed even when the fleet list no longer has it.
 */
export function ambulanceOptions(
  list: AmbulanceDto[],
  currentId: number | null,
  currentPlate: string | null,
  near: LatLon | null,
): AmbulanceOption[] {
  const option = (a: AmbulanceDto, meters: number | null): AmbulanceOption => ({
    value: String(a.id),
    label: plateWithDistance(a.license_plate, meters) + (a.id === currentId ? CURRENT : ''),
  });
  const missing: AmbulanceOption[] = currentId != null && !list.some((a) => a.id === currentId)
    ? [{ value: String(currentId), label: `${currentPlate ?? `#${currentId}`}${CURRENT}` }]
    : [];
  if (!near) return [...missing, ...byPlate(list).map((a) => option(a, null))];
  const nearest = availableByDistance(list, near, { keepId: currentId });
  const listed = new Set(nearest.map((r) => r.ambulance.id));
  return [
    ...missing,
    ...nearest.map((r) => option(r.ambulance, r.meters)),
    ...byPlate(list.filter((a) => !listed.has(a.id))).map((a) => option(a, null)),
  ];
}
