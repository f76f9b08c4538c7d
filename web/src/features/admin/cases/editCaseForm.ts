import {
  CASE_STATUSES, bestLocation, type AmbulanceDto, type CaseDto, type DispatchSuggestion, type IntakeLocationDto, type LatLon, type Priority,
} from '../../../api/contract';
import { isAvailable } from '../../../domain/fleetRules';
import { pointOf } from '../../../domain/liveText';
import { availableByDistance, plateWithDistance } from '../../../domain/nearest';
import { suggestionLabel } from '../../location/suggestions';

/** The Edit Case form as typed; the ambulance select holds the id as text, '' for none. */
export interface EditCaseForm {
  patientName: string;
  email: string;
  description: string;
  status: string;
  /** '1'–'4' (a select's value); absent, the case keeps its priority. */
  priority?: string;
  ambulance_id: string;
  /** The location taken at intake, as the location box holds it. */
  intake?: IntakeLocationDto | null;
  /** The operator changed or cleared it: only then is it sent (a save never rewrites it unasked). */
  intakeChanged?: boolean;
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
    intake: c.intake_location ?? null,
    intakeChanged: false,
  };
}

/**
 * The case's best known location as the form stands: with the intake location changed, the
 * patient's accurate fix still wins (as the server decides); unchanged, the case's own.
 */
export function formLocation(f: EditCaseForm, c: Pick<CaseDto, 'latitude' | 'longitude' | 'patient_location'>): LatLon | null {
  if (!f.intakeChanged) return pointOf(c);
  const best = bestLocation(f.intake ?? null, c.patient_location ?? null);
  return best ? { latitude: best.latitude, longitude: best.longitude } : null;
}

/** Body of PUT /api/cases/{id}; a call put back in the queue (pending) waits without an ambulance, as the server requires. */
export function editCaseBody(f: EditCaseForm) {
  return {
    patientName: f.patientName.trim(),
    email: f.email.trim(),
    description: f.description.trim(),
    status: f.status,
    ...(f.priority ? { priority: Number(f.priority) as Priority } : {}),
    ambulance_id: f.ambulance_id === '' || f.status === 'pending' ? null : Number(f.ambulance_id),
    ...(f.intakeChanged ? { intake_location: f.intake ?? null } : {}),
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
 * a case location; with one, nearest first with the distance ('TS09 EA 1003 — 1.2 km'); with
 * the server's ranking for it (`suggestions`), the held one first, then the ranked ones by
 * estimated arrival ('TS09 EA 1003 — 1.2 km, ~4 min', stale positions last), then the rest nearest first.
 */
export function ambulanceOptions(
  list: AmbulanceDto[],
  currentId: number | null,
  currentPlate: string | null,
  near: LatLon | null,
  selectedId: number | null = null,
  suggestions: readonly DispatchSuggestion[] | null = null,
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
  const byDistance = [...nearest.map((r) => option(r.ambulance, r.meters)), ...taken.map((a) => option(a, null))];
  if (!suggestions) return [...missing, ...byDistance];
  const listable = new Set(byDistance.map((o) => o.value));
  const ranked = suggestions
    .filter((s) => listable.has(String(s.ambulance_id)))
    .map((s) => ({ value: String(s.ambulance_id), label: suggestionLabel(s) + (s.ambulance_id === currentId ? CURRENT : '') }));
  const rankedIds = new Set(ranked.map((o) => o.value));
  // The ambulance the case holds stays on top: keeping it is the choice the dialog starts from.
  const held = byDistance.filter((o) => o.value === String(currentId) && !rankedIds.has(o.value));
  const rest = byDistance.filter((o) => !rankedIds.has(o.value) && o.value !== String(currentId));
  return [...missing, ...held, ...ranked, ...rest];
}
