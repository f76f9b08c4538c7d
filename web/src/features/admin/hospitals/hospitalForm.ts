import { formatDateTime } from '../../../domain/caseRules';
import {
  HOSPITAL_CAPABILITIES, HOSPITAL_CAPABILITY_LABELS, type HospitalCapability, type HospitalDto, type HospitalStatus,
} from '../../../api/contract';

/** The Add/Edit Hospital form as typed: coordinates as text until they are sent. */
export interface HospitalForm {
  name: string;
  address: string;
  latitude: string;
  longitude: string;
  capabilities: HospitalCapability[];
  status: HospitalStatus;
  status_reason: string;
}

export const emptyHospitalForm: HospitalForm = {
  name: '', address: '', latitude: '', longitude: '', capabilities: [], status: 'open', status_reason: '',
};

/** The capability checkboxes, in the contract's order, with their words. */
export const CAPABILITY_CHECKBOXES = HOSPITAL_CAPABILITIES.map((value) => ({ value, label: HOSPITAL_CAPABILITY_LABELS[value] }));

export const HOSPITAL_STATUS_WORDS: Record<HospitalStatus, string> = { open: 'Open', diversion: 'On diversion' };

/** A hospital's capabilities in words, in the contract's order: "Stroke, Trauma"; "None listed" when it has none. */
export const capabilitiesText = (caps: readonly HospitalCapability[]) =>
  (caps.length ? HOSPITAL_CAPABILITIES.filter((c) => caps.includes(c)).map((c) => HOSPITAL_CAPABILITY_LABELS[c]).join(', ') : 'None listed');

export function formFromHospital(h: HospitalDto): HospitalForm {
  return {
    name: h.name,
    address: h.address,
    latitude: String(h.latitude),
    longitude: String(h.longitude),
    capabilities: [...h.capabilities],
    status: h.status,
    status_reason: h.status_reason ?? '',
  };
}

/** Adds or takes away one capability, keeping the contract's order. */
export function toggleCapability(caps: readonly HospitalCapability[], c: HospitalCapability, on: boolean): HospitalCapability[] {
  return HOSPITAL_CAPABILITIES.filter((x) => (x === c ? on : caps.includes(x)));
}

/**
 * "17.385, 78.4867" pasted into either coordinate field (as a map copies it): both coordinates,
 * else null and the field takes the text as typed.
 */
export function pastedPair(text: string): { latitude: string; longitude: string } | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  return m ? { latitude: m[1], longitude: m[2] } : null;
}

type Field = 'name' | 'latitude' | 'longitude' | 'status_reason';

const coordinate = (text: string, max: number, what: string): string | undefined => {
  if (!text.trim()) return 'Required';
  const n = Number(text.trim());
  if (!Number.isFinite(n)) return `Enter the ${what} as a number, e.g. ${max === 90 ? '17.385' : '78.4867'}`;
  if (Math.abs(n) > max) return `The ${what} is between -${max} and ${max}`;
  return undefined;
};

/** What the form must fix before it is sent; the server checks again (its refusal is the toast). */
export function hospitalFormProblems(f: HospitalForm): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  if (!f.name.trim()) problems.name = 'Required';
  const lat = coordinate(f.latitude, 90, 'latitude');
  if (lat) problems.latitude = lat;
  const lon = coordinate(f.longitude, 180, 'longitude');
  if (lon) problems.longitude = lon;
  if (f.status === 'diversion' && !f.status_reason.trim()) problems.status_reason = 'Say why the hospital is on diversion';
  return problems;
}

/**
 * Body of POST /api/hospitals (every field) and PUT /api/hospitals/{id}. An edit sends the status
 * only when it changed: the server records who set a status and when, and an edit of the name
 * must not make the admin its setter. Reopening sends no reason (the server clears it).
 */
export function hospitalBody(f: HospitalForm, before: HospitalForm | null) {
  const body = {
    name: f.name.trim(),
    address: f.address.trim(),
    latitude: Number(f.latitude.trim()),
    longitude: Number(f.longitude.trim()),
    capabilities: f.capabilities,
  };
  const reason = f.status === 'diversion' ? f.status_reason.trim() : undefined;
  const statusChanged = !before || before.status !== f.status || (f.status === 'diversion' && before.status_reason.trim() !== reason);
  if (!statusChanged) return body;
  return { ...body, status: f.status, ...(reason !== undefined ? { status_reason: reason } : {}) };
}

/** "Set by Hospital · December 7, 2026 at 12:03": who set the status last and when ("Since …" when nobody is recorded). */
export const statusSetText = (h: Pick<HospitalDto, 'status_updated_by' | 'status_updated_at'>) =>
  (h.status_updated_by ? `Set by ${h.status_updated_by} · ${formatDateTime(h.status_updated_at)}` : `Since ${formatDateTime(h.status_updated_at)}`);
