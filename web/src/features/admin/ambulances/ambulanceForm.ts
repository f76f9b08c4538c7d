import { AMBULANCE_STATUSES, type AmbulanceDto } from '../../../api/contract';

export interface AmbulanceForm { license_plate: string; status: string; email: string }

/** A new ambulance starts available (SPEC §5). */
export const emptyAmbulanceForm: AmbulanceForm = { license_plate: '', status: 'available', email: '' };

export const AMBULANCE_STATUS_OPTIONS = AMBULANCE_STATUSES.map((value) => ({
  value, label: value.charAt(0).toUpperCase() + value.slice(1),
}));

export function formFromAmbulance(a: AmbulanceDto): AmbulanceForm {
  return { license_plate: a.license_plate, status: a.status || 'available', email: a.email ?? '' };
}

/** Admins send every field; other staff may change only the status, so they send only that. */
export function ambulanceBody(f: AmbulanceForm, statusOnly: boolean) {
  if (statusOnly) return { status: f.status };
  return { license_plate: f.license_plate.trim(), status: f.status, email: f.email.trim() || null };
}
