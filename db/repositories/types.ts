import type { Knex } from 'knex';

/** Every repository function takes the knex instance or the running transaction. */
export type Db = Knex | Knex.Transaction;

export const nowIso = () => new Date().toISOString();

/**
 * Runs a query once and answers a real promise of its rows. A Knex builder is a thenable that
 * runs its query again on every `then`: typed as a Promise and awaited twice (a memoised
 * look-up, a result shared by two awaits), it silently doubles the statements.
 */
export const fetched = <T>(query: Knex.QueryBuilder | Knex.Raw): Promise<T> => query.then((rows: unknown) => rows as T);

/** The id of the first row an `insert … returning('id')` answers: `{ id }` from PostgreSQL, the bare id from SQLite. */
export function insertedId(rows: unknown[]): number {
  const row = rows[0] as { id: number } | number;
  return typeof row === 'object' ? row.id : row;
}

export interface UserRow {
  id: number; name: string; name_key: string; email: string; phone: string | null; phone_digits: string | null;
  address: string | null; role: 'admin' | 'operator'; shift: number | null; gender: number | null;
  location: string | null; active: boolean | number; version: number; created_at: string; updated_at: string;
}
export interface SessionRow {
  id: number; user_id: number; token_hash: string; created_at: string; expires_at: string; revoked_at: string | null;
}
export interface AmbulanceRow {
  id: number; license_plate: string; plate_key: string; status: string; driver_email: string | null;
  /** What the unit can do (contract CAPABILITIES). */
  capability: string;
  latitude: number | null; longitude: number | null; accuracy: number | null; heading: number | null;
  speed: number | null; position_at: string | null; place_name: string | null; version: number;
  created_at: string; updated_at: string;
  /** The latest fix's source (contract POSITION_SOURCES) and battery level in percent, when it reported one. */
  position_source: string | null; battery: number | null;
  /** SHA-256 of the device secret a GPS app or tracker reports with, and when it was issued. */
  device_hash: string | null; device_issued_at: string | null;
  /** Joined: the open assignment's step and since when (null when the ambulance has none). */
  unit_step?: string | null; unit_step_at?: string | null;
}
export interface CaseRow {
  id: string; description: string; status: string; case_type: string | null; patient_name: string;
  patient_email: string; operator_id: number | null; ambulance_id: number | null;
  latitude: number | string | null; longitude: number | string | null; location_accuracy: number | null;
  location_at: string | null; version: number; created_at: string; updated_at: string; closed_at: string | null;
  /** The location taken on the phone (contract IntakeLocationDto), apart from the patient's shared fix above. */
  intake_latitude: number | null; intake_longitude: number | null; intake_address: string | null; intake_source: string | null;
  /** SHA-256 of the patient's location-link token. */
  location_token_hash: string | null;
  /** When the case took its current ambulance. */
  dispatched_at: string | null;
  /** 1 (most urgent) to 4. */
  priority: number;
  /** When the call reached the centre (NEMSIS eTimes.01). */
  call_received_at: string;
  /** The current (or last) assignment. */
  assignment_id: number | null;
  /** Generated demo history (SEED=demo), never a real call; SQLite answers 0/1. */
  demo?: boolean | number;
  /** What a history search matches (caseSearchText.ts); absent from a row that was not read whole. */
  search_text?: string | null;
  /** Joined from ambulances. */
  license_plate?: string | null;
  /**
   * Every assignment of the case, read with it as one JSON array of UNIT_COLUMNS (SQLite answers
   * its text, PostgreSQL the parsed array); absent from a row that was not read whole.
   */
  units?: string | UnitJson[] | null;
  /** The call's latest request for backup (contract BackupAlert as JSON), answered or not. */
  backup_request?: string | null;
}
/** One assignment as a case row carries it (caseRepository's `units`). */
export type UnitJson = Pick<AssignmentRow, 'id' | 'ambulance_id' | 'license_plate' | 'status' | 'capability' | 'dispatched_at' | 'en_route_at'
  | 'on_scene_at' | 'transporting_at' | 'at_hospital_at' | 'handover_at' | 'cleared_at' | 'cancelled_at'
  | 'destination_hospital_id' | 'destination_name' | 'destination_reason' | 'destination_set_at'> & DestinationPoints;
/** Joined with an assignment for its arrival at its destination: the hospital's point and the unit's latest fix. */
export interface DestinationPoints {
  destination_latitude?: number | null; destination_longitude?: number | null;
  unit_latitude?: number | null; unit_longitude?: number | null;
  /** The unit's latest pre-alert, when it sent one. */
  prealert_id?: number | null; prealert_activation?: string | null; prealert_sent_at?: string | null; prealert_acknowledged_at?: string | null;
}
export interface AssignmentRow {
  id: number; case_id: string; ambulance_id: number | null; license_plate: string; status: string;
  /** The unit's capability when dispatched (contract CAPABILITIES). */
  capability: string;
  dispatched_at: string; en_route_at: string | null; on_scene_at: string | null; transporting_at: string | null;
  at_hospital_at: string | null; cleared_at: string | null; cancelled_at: string | null;
  /** eTimes.12, the transfer of care at the destination. */
  handover_at: string | null;
  /** The destination (eDisposition.01/.20): the hospital, its name when chosen, why, and when. */
  destination_hospital_id?: number | null; destination_name?: string | null; destination_reason?: string | null; destination_set_at?: string | null;
  /** Recorded at on_scene: metres driven since en_route (the fixes' path) and the straight line from the en-route fix to the scene. */
  travel_distance_m?: number | null; travel_straight_m?: number | null;
}
export interface CaseEventRow {
  id: number; case_id: string; action: string; actor_type: string; actor_id: number | null;
  before: string | null; after: string | null; created_at: string;
}
/**
 * Where a case and its timeline hold a patient's location, as retention asks the repositories for it:
 * built from the contract's one list (realtime-server/contract/privacy.ts, which db/ does not import).
 */
export interface PatientLocationFields {
  /** The case columns that hold it; all are cleared together. */
  columns: readonly string[];
  /** Of those, the ones that place the patient: a case holds a location while any is set (the others only describe it). */
  places: readonly string[];
  /** The text a redacted 'location' entry holds (both sides). */
  redactedShare: string;
  /** The keys of 'created' and 'updated' entries that hold a place. */
  editKeys: readonly string[];
}
export interface OutboxRow {
  id: number; kind: string; to_address: string; subject: string; body_text: string; links: string;
  status: 'queued' | 'sending' | 'sent' | 'failed'; attempts: number; next_attempt_at: string;
  last_error: string | null; case_id: string | null; created_at: string; sent_at: string | null;
  /** The lease of a message being sent: which worker, until when. */
  claimed_by?: string | null; claimed_until?: string | null;
  /** While body_text/links hold live secrets: the copy they are kept as once sent (each secret as `…`); null otherwise. */
  body_redacted?: string | null; links_redacted?: string | null;
  /** When those secrets stop working by themselves (a sign-in code), if they do. */
  secrets_expire_at?: string | null;
}
export interface PositionRow {
  id: number; ambulance_id: number; latitude: number; longitude: number; accuracy: number | null;
  heading: number | null; speed: number | null; recorded_at: string; received_at: string; source: string;
  /** Percent, when the device reported it. */
  battery: number | null;
}
export interface TrackTokenRow {
  id: number; token_hash: string; kind: 'viewer' | 'driver'; case_id: string; ambulance_id: number;
  created_at: string; revoked_at: string | null;
}

/** The knex client the instance runs on ('pg', 'better-sqlite3'); knex's own typings leave `db.client` untyped. */
export const clientName = (db: Db) => (db.client as Knex.Client).config.client;

/** Row locks (FOR UPDATE / FOR SHARE) where the engine has them; SQLite serialises writers on its one connection instead. */
export const rowLocks = (db: Db) => clientName(db) !== 'better-sqlite3';
export interface HospitalRow {
  id: number; name: string; address: string; latitude: number; longitude: number;
  /** JSON list of contract HOSPITAL_CAPABILITIES. */
  capabilities: string;
  status: string; status_reason: string | null; status_updated_at: string; status_updated_by: string | null;
  /** SHA-256 of the hospital page's link token; null until an admin makes one. */
  link_hash: string | null; link_issued_at: string | null;
  version: number; created_at: string; updated_at: string;
}
export interface PrealertRow {
  id: number; assignment_id: number; case_id: string; hospital_id: number | null; activation: string;
  /** The ATMIST content as JSON (contract PrealertInput without activation); null once redacted. */
  content: string | null;
  sent_at: string; acknowledged_at: string | null; ack_alerted_at: string | null; redacted_at: string | null;
}
