/** Who made a timeline entry: a staff member (with their id), the patient, a driver's link or the server itself. */
export const TIMELINE_ACTORS = ['user', 'patient', 'driver', 'system'] as const;
export type TimelineActorType = (typeof TIMELINE_ACTORS)[number];

/**
 * One entry of GET /api/cases/{id}/timeline (admins), oldest first. `before` and `after`
 * are JSON text of the fields the entry changed, as they were and as they became (null
 * when there is no side); read them with timelineFields.
 */
export interface TimelineEntryDto {
  id: number;
  case_id: string;
  /** created, updated, deleted, location, tracking, location.viewed, location.redacted, … */
  action: string;
  actor_type: TimelineActorType;
  /** The staff member's id when actor_type is 'user'; null otherwise. */
  actor_id: number | null;
  before: string | null;
  after: string | null;
  created_at: string;
}

/** The fields held in an entry's `before` or `after`: an object, or null when absent or unreadable. */
export function timelineFields(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * How a timeline names the intake location's fields ('created' and 'updated' entries hold
 * them as the case's columns): "Location: Charminar, Hyderabad" rather than "Intake address".
 */
export const INTAKE_TIMELINE_LABELS: Readonly<Record<string, string>> = {
  intake_address: 'Location',
  intake_latitude: 'Location latitude',
  intake_longitude: 'Location longitude',
  intake_source: 'Location found by',
};

/**
 * The fields a diversion (POST /api/cases/{id}/dispatch with take_from_case_id, contract/queue.ts)
 * adds to the two calls' 'updated' entries, beside status, ambulance_id and unit_status: the
 * requeued call's `after.diverted_to` and the dispatched call's `after.diverted_from`, each the
 * other call's id; the entry's actor is who diverted the unit.
 */
export const DIVERSION_TIMELINE_LABELS: Readonly<Record<string, string>> = {
  diverted_to: 'Unit taken for call',
  diverted_from: 'Unit taken from call',
};
