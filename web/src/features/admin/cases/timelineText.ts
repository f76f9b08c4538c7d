import { type TimelineEntryDto, timelineFields } from '../../../api/contract';
import { formatDateTime } from '../../../domain/caseRules';

const FIELD_LABELS: Record<string, string> = {
  status: 'Status', patient_name: 'Patient', patient_email: 'Patient e-mail', driver_email: 'Driver e-mail', description: 'Description',
  case_type: 'Type', ambulance_id: 'Ambulance', closed_at: 'Closed at', latitude: 'Latitude',
  longitude: 'Longitude', accuracy: 'Accuracy', location_updated_at: 'Position shared', reason: 'Reason', redacted: 'Redacted',
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
};
export const actionText = (action: string) => ACTION_LABELS[action] ?? words(action);

export interface Change { field: string; before?: string; after?: string }

/**
 * The fields an entry changed, each as 'before → after' text, named in words. A creation
 * has only after-values; a share lists its new position; a deletion shows nothing (its copy
 * of the case is for the record); ambulance ids are shown as plates.
 */
export function changesOf(e: TimelineEntryDto, plateOf: (id: number) => string | undefined): Change[] {
  const before = timelineFields(e.before);
  const after = timelineFields(e.after);
  if (e.action === 'deleted') return [];
  const show = (key: string, v: unknown): string => {
    if (v === null || v === undefined || v === '') return '—';
    if (key === 'ambulance_id' && typeof v === 'number') return plateOf(v) ?? `#${v}`;
    if (typeof v === 'number') return String(Math.round(v * 1e6) / 1e6);
    if (key === 'location_updated_at' && typeof v === 'string') return formatDateTime(v);
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
    default: return e.actor_type;
  }
}
