import type { CaseLocationColumn } from './privacy';

/** Who made a timeline entry: a staff member (with their id), the patient, a driver's link or the server itself. */
export const TIMELINE_ACTORS = ['user', 'patient', 'driver', 'system', 'hospital'] as const;
export type TimelineActorType = (typeof TIMELINE_ACTORS)[number];

/** The fields one side of a timeline entry holds, by name. */
export type TimelineFields = Record<string, unknown>;

/**
 * One entry of GET /api/cases/{id}/timeline (admins), oldest first. `before` and `after`
 * are the fields the entry changed, as they were and as they became (objects; null when
 * there is no side). Which of them hold a patient's place, and are removed at retention:
 * contract/privacy.ts TIMELINE_LOCATION_KEYS.
 */
export interface TimelineEntryDto {
  id: number;
  case_id: string;
  /** created, updated, deleted, location, tracking, location.viewed, location.redacted, … */
  action: string;
  actor_type: TimelineActorType;
  /** The staff member's id when actor_type is 'user'; null otherwise. */
  actor_id: number | null;
  before: TimelineFields | null;
  after: TimelineFields | null;
  created_at: string;
}

/**
 * How a timeline names the intake location's fields ('created' and 'updated' entries hold
 * them as the case's columns): "Location: Charminar, Hyderabad" rather than "Intake address".
 */
export const INTAKE_TIMELINE_LABELS: Readonly<Record<Extract<CaseLocationColumn, `intake_${string}`>, string>> = {
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
