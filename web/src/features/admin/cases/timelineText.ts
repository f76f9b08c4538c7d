import { type AssignmentStatus, CAPABILITY_LABELS, type Capability, type TimelineEntryDto, DIVERSION_TIMELINE_LABELS, INTAKE_TIMELINE_LABELS, TIMED_STEPS, stepTimeKey } from '../../../api/contract';
import { UNIT_STATUS_LABELS } from '../../../domain/callLife';
import { formatDateTime } from '../../../domain/caseRules';

const FIELD_LABELS: Record<string, string> = {
  status: 'Status', patient_name: 'Patient', patient_email: 'Patient e-mail', driver_email: 'Driver e-mail', description: 'Description',
  case_type: 'Type', ambulance_id: 'Ambulance', closed_at: 'Closed at', latitude: 'Latitude',
  longitude: 'Longitude', accuracy: 'Accuracy', location_updated_at: 'Position shared', reason: 'Reason', redacted: 'Redacted',
  priority: 'Priority', unit_status: 'Unit status', call_received_at: 'Call received',
  ...INTAKE_TIMELINE_LABELS,
  ...DIVERSION_TIMELINE_LABELS,
};

/** A key no label names yet, in words all the same ('dispatched_at' → 'Dispatched at'). */
const words = (key: string) => {
  const text = key.replace(/[._]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
};
const fieldText = (key: string) => FIELD_LABELS[key] ?? words(key);

/** What an entry's action is called on the timeline. */
const ACTION_LABELS: Record<string, string> = {
  created: 'Case created',
  updated: 'Case updated',
  deleted: 'Case deleted',
  location: 'Location shared',
  tracking: 'Tracking links sent',
  'location.viewed': 'Location viewed',
  'location.redacted': 'Location deleted',
  'unit.status': 'Unit status',
  'unit.corrected': 'Time corrected',
  'unit.added': 'Unit added',
  'unit.cancelled': 'Unit stood down',
  'backup.requested': 'Backup requested',
  'crew.not_notified': 'Crew not notified',
  'destination.set': 'Destination',
  'prealert.sent': 'Pre-alert sent',
  'prealert.acknowledged': 'Pre-alert acknowledged',
  'prealert.late': 'Pre-alert not acknowledged',
  'hospital.viewed': "Seen on the hospital's page",
};
/** Entries said in one sentence (entrySummary), not field by field. */
const SUMMARISED = new Set(['deleted', 'unit.status', 'unit.corrected', 'unit.added', 'unit.cancelled', 'backup.requested',
  'destination.set', 'prealert.sent', 'prealert.acknowledged', 'prealert.late', 'hospital.viewed']);
export const actionText = (action: string) => ACTION_LABELS[action] ?? words(action);

export interface Change { field: string; before?: string; after?: string }

/**
 * The fields an entry changed, each as 'before → after' text, named in words. A creation
 * has only after-values; a share lists its new position; a deletion shows nothing (its copy
 * of the case is for the record); ambulance ids are shown as plates.
 */
export function changesOf(e: TimelineEntryDto, plateOf: (id: number) => string | undefined): Change[] {
  const { before, after } = e;
  // A deletion's copy of the case is for the record; a unit's step and a correction are said in one sentence (entrySummary).
  if (SUMMARISED.has(e.action)) return [];
  const show = (key: string, v: unknown): string => {
    if (v === null || v === undefined || v === '') return '—';
    if (key === 'ambulance_id' && typeof v === 'number') return plateOf(v) ?? `#${v}`;
    if (typeof v === 'number') return String(Math.round(v * 1e6) / 1e6);
    if ((key === 'location_updated_at' || key === 'call_received_at') && typeof v === 'string') return formatDateTime(v);
    if (key === 'unit_status' && typeof v === 'string') return UNIT_STATUS_LABELS[v as AssignmentStatus] ?? v;
    // The other call of a diversion, by the short id the board and the tables show.
    if (key in DIVERSION_TIMELINE_LABELS && typeof v === 'string') return `#${v.slice(0, 8)}`;
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  const changes: Change[] = [];
  for (const key of new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])) {
    const was = before && key in before ? show(key, before[key]) : undefined;
    const now = after && key in after ? show(key, after[key]) : undefined;
    // A value to the same value is no change; a field without an earlier value is listed
    // only when it has one now (a creation lists what was filled in).
    if (was !== undefined && was === now) continue;
    if (was === undefined && empty(after?.[key])) continue;
    changes.push({ field: fieldText(key), before: was, after: now });
  }
  return changes;
}

/** Who did it: a staff member's name when known, the patient, a driver or the system. */
export function actorText(e: TimelineEntryDto, nameOf: (id: number) => string | undefined): string {
  switch (e.actor_type) {
    case 'user': return e.actor_id == null ? 'Staff' : nameOf(e.actor_id) ?? `Staff #${e.actor_id}`;
    case 'patient': return 'Patient';
    case 'driver': return 'Driver';
    case 'system': return 'System';
    case 'hospital': return "the hospital's page";
    default: return e.actor_type;
  }
}

const statusText = (v: unknown) => (typeof v === 'string' ? UNIT_STATUS_LABELS[v as AssignmentStatus] ?? v : '—');

/**
 * One sentence for a unit's step or a correction: "TS09 EA 1003 En route — by driver link at
 * 10:42:13", "On scene time corrected from 10:40:00 to 10:38:30 — crew radioed first"; null for
 * other entries (their changes are listed field by field).
 */
export function entrySummary(e: TimelineEntryDto, nameOf: (id: number) => string | undefined, timeOf: (iso: string) => string): string | null {
  const before = e.before ?? {};
  const after = e.after ?? {};
  const time = (v: unknown) => (typeof v === 'string' && v ? timeOf(v) : '—');
  if (e.action === 'unit.status') {
    const who = e.actor_type === 'driver' ? 'driver link' : actorText(e, nameOf);
    const plate = typeof after.license_plate === 'string' && after.license_plate ? `${after.license_plate} ` : '';
    const at = typeof after.at === 'string' ? ` at ${time(after.at)}` : '';
    return `${plate}${statusText(after.status)} — by ${who}${at}`;
  }
  const plateOf = (v: unknown) => (typeof v === 'string' && v ? v : 'A unit');
  const capability = (v: unknown) => (typeof v === 'string' && v in CAPABILITY_LABELS ? ` (${CAPABILITY_LABELS[v as Capability]})` : '');
  const note = (v: unknown) => (typeof v === 'string' && v ? ` — ${v}` : '');
  if (e.action === 'unit.added') return `${plateOf(after.license_plate)}${capability(after.capability)} added to the call — by ${actorText(e, nameOf)}`;
  if (e.action === 'unit.cancelled') {
    return `${plateOf(after.license_plate)} stood down from ${statusText(before.status)} — by ${actorText(e, nameOf)}${note(after.reason)}`;
  }
  if (e.action === 'backup.requested') {
    const who = e.actor_type === 'driver' ? 'its crew' : actorText(e, nameOf);
    return `${plateOf(after.license_plate)} asked for backup — by ${who}${note(after.note)}`;
  }
  const crewOr = () => (e.actor_type === 'driver' ? 'its crew' : actorText(e, nameOf));
  const hospital = (v: unknown) => (typeof v === 'string' && v ? v : 'the hospital');
  if (e.action === 'destination.set') {
    const reason = typeof after.reason_text === 'string' ? ` (${after.reason_text})` : '';
    return `${plateOf(after.license_plate)} to ${hospital(after.hospital)}${reason} — by ${crewOr()}`;
  }
  if (e.action === 'prealert.sent') return `${plateOf(after.license_plate)} pre-alerted ${hospital(after.hospital)} — by ${crewOr()}`;
  if (e.action === 'prealert.acknowledged') return `${hospital(after.hospital)} acknowledged the pre-alert`;
  if (e.action === 'prealert.late') return `${hospital(after.hospital)} did not acknowledge the pre-alert of ${plateOf(after.license_plate)}: dispatchers alerted`;
  if (e.action === 'hospital.viewed') return "The call was seen on its hospital's page";
  if (e.action === 'unit.corrected') {
    const step = TIMED_STEPS.find((s) => stepTimeKey(s) in after);
    if (!step) return 'Time corrected';
    const key = stepTimeKey(step);
    const reason = typeof after.reason === 'string' && after.reason ? ` — ${after.reason}` : '';
    return `${UNIT_STATUS_LABELS[step]} time corrected from ${time(before[key])} to ${time(after[key])}${reason}`;
  }
  return null;
}
