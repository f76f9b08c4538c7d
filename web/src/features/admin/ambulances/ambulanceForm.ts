import { AMBULANCE_STATUSES, type AmbulanceDto } from '../../../api/contract';
import { type Capability, CAPABILITY_HINTS, CAPABILITY_OPTIONS, CAPABILITY_WORDS } from '../../shared/capabilityWords';

export interface AmbulanceForm { license_plate: string; status: string; email: string; capability: Capability }

/** A new ambulance starts available (SPEC §5), ALS as the server's default. */
export const emptyAmbulanceForm: AmbulanceForm = { license_plate: '', status: 'available', email: '', capability: 'als' };

export const AMBULANCE_STATUS_OPTIONS = AMBULANCE_STATUSES.map((value) => ({
  value, label: value.charAt(0).toUpperCase() + value.slice(1),
}));

/** The capability select's choices: the words, with the line that says what each is. */
export const CAPABILITY_CHOICES = CAPABILITY_OPTIONS.map((value) => ({ value, label: CAPABILITY_WORDS[value], description: CAPABILITY_HINTS[value] }));

export function formFromAmbulance(a: AmbulanceDto): AmbulanceForm {
  return { license_plate: a.license_plate, status: a.status || 'available', email: a.email ?? '', capability: a.capability ?? 'als' };
}

/** Admins send every field; other staff may change only the status (the server refuses them the capability), so they send only that. */
export function ambulanceBody(f: AmbulanceForm, statusOnly: boolean) {
  if (statusOnly) return { status: f.status };
  return { license_plate: f.license_plate.trim(), status: f.status, email: f.email.trim() || null, capability: f.capability };
}
