import { CASE_STATUSES, type AmbulanceDto, type CaseDto, type LatLon, type Priority } from '../../../api/contract';
import { isAvailable } from '../../../domain/fleetRules';
import { availableByDistance, plateWithDistance } from '../../../domain/nearest';

/** The Edit Case form as typed; the ambulance select holds the id as text, '' for none. */
export interface EditCaseForm {
  patientName: string;
  email: string;
  description: string;
  status: string;
  /** '1'–'4' (a select's value); absent, the case keeps its priority. */
  priority?: string;
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
    priority: String(c.priority ?? 3),
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
    ...(f.priority ? { priority: Number(f.priority) as Priority } : {}),
    ambulance_id: f.ambulance_id === '' ? null : Number(f.ambulance_id),
  };
}

/** Ambulances listed by license plate. */
export const byPlate = (list: AmbulanceDto[]) =>
  [...list].sort((a, b) => a.license_plate.localeCompare(b.license_plate, undefined, { numeric: true }));

export interface AmbulanceOption { value: string; label: string }

const CURRENT = ' (Currently assigned)';

/**
 * The Assigned Ambulance options after 'Select an ambulance': only ambulances that can take
 * the case — the available ones and the one the case holds (suffixed '(Currently assigned)',
 * listed even when the fleet list no longer has it) — plus the one the form holds if it was
 * taken while the dialog was open (the save then shows the server's reason). By plate without
 * a case location; with one, nearest first with the distance ('TS09 EA 1003 — 1.2 km').
 */
export function ambulanceOptions(
  list: AmbulanceDto[],
  currentId: number | null,
  currentPlate: string | null,
  near: LatLon | null,
  selectedId: number | null = null,
): AmbulanceOption[] {
  const option = (a: AmbulanceDto, meters: number | null): AmbulanceOption => ({
    value: String(a.id),
    label: plateWithDistance(a.license_plate, meters) + (a.id === currentId ? CURRENT : ''),
  });
  const missing: AmbulanceOption[] = currentId != null && !list.some((a) => a.id === currentId)
    ? [{ value: String(currentId), label: `${currentPlate ?? `#${currentId}`}${CURRENT}` }]
    : [];
  const kept = (a: AmbulanceDto) => isAvailable(a) || a.id === currentId || a.id === selectedId;
  if (!near) return [...missing, ...byPlate(list.filter(kept)).map((a) => option(a, null))];
  const nearest = availableByDistance(list, near, { keepId: currentId });
  const listed = new Set(nearest.map((r) => r.ambulance.id));
  const taken = list.filter((a) => a.id === selectedId && !listed.has(a.id));
  return [...missing, ...nearest.map((r) => option(r.ambulance, r.meters)), ...taken.map((a) => option(a, null))];
}
