import { ApiError } from '../../api/client';
import { EMERGENCY_TYPES as CONTRACT_TYPES, type IntakeLocationDto } from '../../api/contract';
import { formPriority } from './intake';

/** The form's type list: the contract's, in its order (SPEC §5's, the two P1 types of issue 25, Other). */
export const EMERGENCY_TYPES = CONTRACT_TYPES.map((t) => t.type);

/** The server keeps a description of at most this many characters (contract: description). */
const DESCRIPTION_MAX = 2000;

export interface DispatchValues {
  patientName: string;
  email: string;
  emergencyType: string;
  /**
   * The caller's words: required as the Description when the type is Other (SPEC §5), optional
   * Notes for every other type.
   */
  description: string;
  /** The chosen ambulance's id, as the select holds it. */
  ambulanceId: string;
  /** The priority the operator picked by hand ('1'–'4'), '' while it follows the type. */
  priority: string;
  /** Where the call is, as understood at intake; optional (a call without one still goes). */
  intake?: IntakeLocationDto | null;
}

export const EMPTY_FORM: DispatchValues = { patientName: '', email: '', emergencyType: '', description: '', ambulanceId: '', priority: '', intake: null };

/** Dispatch an ambulance now, or queue the call (pending, no ambulance) until one is free. */
export type DispatchMode = 'dispatch' | 'queue';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const filled = (v: string) => v.trim() !== '';

export type DispatchField = Exclude<keyof DispatchValues, 'priority' | 'intake'>;
export type DispatchErrors = Partial<Record<DispatchField, string>>;

/** What the free-text field is called: SPEC's Description for Other (required), Notes for any other type. */
export const descriptionLabel = (emergencyType: string) => (emergencyType === 'Other' ? 'Description' : 'Notes');

/**
 * The description sent (SPEC §5): for Other the typed text; otherwise the chosen type, with the
 * notes after it when there are any ("Cardiac arrest — CPR in progress"), so the type still leads
 * and a server that reads the type from the description (SPEC's own payload) still finds it.
 */
export function descriptionOf(v: Pick<DispatchValues, 'emergencyType' | 'description'>): string {
  const notes = v.description.trim();
  if (v.emergencyType === 'Other') return notes;
  return notes ? `${v.emergencyType} — ${notes}` : v.emergencyType;
}

/** How much the free-text field takes, so that the description sent (type, dash, notes) stays within what the server keeps. */
export const descriptionMax = (emergencyType: string) =>
  (emergencyType === 'Other' ? DESCRIPTION_MAX : DESCRIPTION_MAX - `${emergencyType || EMERGENCY_TYPES[0]} — `.length);

/** The form's fields in the order they appear (and take focus) on screen. */
export const FIELD_ORDER: readonly DispatchField[] = ['patientName', 'email', 'emergencyType', 'ambulanceId', 'description'];

/**
 * SPEC §5: every required field non-blank (Description only for Other) and the e-mail well
 * formed. Each problem is worded for the field it belongs to, so the dispatcher sees at the
 * field what to fix (the toast alone says only that something is missing).
 */
export function dispatchErrors(v: DispatchValues, mode: DispatchMode = 'dispatch'): DispatchErrors {
  const errors: DispatchErrors = {};
  if (!filled(v.patientName)) errors.patientName = 'Enter the patient\'s name';
  if (!filled(v.email)) errors.email = 'Enter the patient\'s e-mail address';
  else if (!EMAIL.test(v.email.trim())) errors.email = 'This is not a valid e-mail address (e.g. name@example.com)';
  if (!filled(v.emergencyType)) errors.emergencyType = 'Choose the type of emergency';
  if (mode === 'dispatch' && !filled(v.ambulanceId)) errors.ambulanceId = 'Choose an ambulance';
  if (v.emergencyType === 'Other' && !filled(v.description)) errors.description = 'Describe the emergency';
  return errors;
}

/** The first field, in screen order, that has a problem. */
export const firstInvalid = (errors: DispatchErrors): DispatchField | undefined => FIELD_ORDER.find((f) => errors[f]);

export function isComplete(v: DispatchValues): boolean {
  return Object.keys(dispatchErrors(v)).length === 0;
}

/**
 * The case-creation payload of SPEC §3 for POST /live-location (the ambulance id travels as
 * license_plate), with the call's priority, when it came in and where (when known). A queued
 * call is `pending` and carries no ambulance.
 */
export function casePayload(v: DispatchValues, operatorId: number | undefined, { mode = 'dispatch', callReceivedAt = null }: {
  mode?: DispatchMode;
  /** ISO, in the server's time; absent, the server takes the creation time. */
  callReceivedAt?: string | null;
} = {}) {
  const priority = formPriority(v.priority, v.emergencyType);
  return {
    ...(operatorId != null ? { operator_id: operatorId } : {}),
    to: v.email.trim(),
    status: mode === 'queue' ? 'pending' as const : 'active' as const,
    patientName: v.patientName.trim(),
    description: descriptionOf(v),
    ...(mode === 'dispatch' ? { license_plate: Number(v.ambulanceId) } : {}),
    caseType: v.emergencyType,
    ...(priority != null ? { priority } : {}),
    ...(callReceivedAt ? { call_received_at: callReceivedAt } : {}),
    ...(v.intake ? { intake_location: v.intake } : {}),
  };
}

/** SPEC §8's wording for a failed dispatch. */
export function dispatchErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.serverError) return error.serverError;
    if (error.status === 500) return 'Server error (500). Please check your input or try again later.';
    return 'Failed to create case or send email';
  }
  return 'Network or server error. Please try again later.';
}

/**
 * The patient's share-location link for a new case, on this app's origin: the case id and
 * the link's own token from the server's `locationLink` (the token is what lets the patient
 * share; the case id alone writes nothing).
 */
export function shareLinkFor(caseId: string, locationLink: string, origin = window.location.origin): string {
  const token = new URL(locationLink).searchParams.get('t') ?? '';
  return `${origin}/location/${encodeURIComponent(caseId)}?t=${encodeURIComponent(token)}`;
}
