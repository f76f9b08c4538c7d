import { REDACTED_JSON, holdingIntake } from './caseEventRepository';
import { type CaseRow, type Db, nowIso, rowLocks } from './types';

/** The statuses a case ends in (its `closed_at` says when). */
const ENDED = ['closed', 'resolved'];

export interface CaseFields {
  description?: string;
  intake_latitude?: number | null;
  intake_longitude?: number | null;
  intake_address?: string | null;
  intake_source?: string | null;
  status?: string;
  case_type?: string | null;
  patient_name?: string;
  patient_email?: string;
  ambulance_id?: number | null;
  closed_at?: string | null;
  dispatched_at?: string | null;
  priority?: number;
  assignment_id?: number | null;
}

/** Row locks exist on PostgreSQL; SQLite runs one connection, so its write transactions never overlap. */

const ASSIGNMENT_COLUMNS = ['id', 'ambulance_id', 'license_plate', 'status', 'dispatched_at', 'en_route_at', 'on_scene_at', 'transporting_at', 'at_hospital_at', 'cleared_at', 'cancelled_at'];

/** Cases with their ambulance's plate and their current assignment (as `a_…` columns). */
const withPlate = (db: Db) =>
  db<CaseRow>('cases')
    .leftJoin('ambulances', 'ambulances.id', 'cases.ambulance_id')
    .leftJoin('assignments as a', 'a.id', 'cases.assignment_id')
    .select('cases.*', 'ambulances.license_plate as license_plate', ...ASSIGNMENT_COLUMNS.map((c) => `a.${c} as a_${c}`));

export const caseRepository = {
  list: (db: Db) => withPlate(db).orderBy('cases.created_at', 'desc'),
  findById: (db: Db, id: string) => withPlate(db).where('cases.id', id).first() as Promise<CaseRow | undefined>,
  /** Active cases holding an ambulance (normally zero or one). */
  activeForAmbulance: (db: Db, ambulanceId: number) =>
    db<CaseRow>('cases').where({ ambulance_id: ambulanceId, status: 'active' }),
  /** Locks a case's row until the transaction ends (concurrent writers of it wait). */
  lock: async (db: Db, id: string) => { if (rowLocks(db)) await db('cases').where({ id }).forUpdate().select('id'); },
  /** Locks the rows of every case naming an ambulance. */
  lockReferencingAmbulance: async (db: Db, ambulanceId: number) => {
    if (rowLocks(db)) {
      await db('cases')
        .where({ ambulance_id: ambulanceId })
        .orWhereIn('assignment_id', db('assignments').where({ ambulance_id: ambulanceId }).select('id'))
        .forUpdate().select('id');
    }
  },
  /** Which of these cases still exist, each held (FOR SHARE) against deletion until the transaction ends. */
  async existingHeld(db: Db, ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const q = db<CaseRow>('cases').whereIn('id', ids.slice(i, i + 500));
      for (const id of await (rowLocks(db) ? q.forShare() : q).pluck('id')) found.add(id);
    }
    return found;
  },
  /** Every case naming an ambulance, whatever its status. */
  referencingAmbulance: (db: Db, ambulanceId: number) => db<CaseRow>('cases').where({ ambulance_id: ambulanceId }),
  /** Cases no longer naming an ambulance whose current (ended) assignment still does: its DTO shows that ambulance. */
  withCurrentAssignmentOf: (db: Db, ambulanceId: number) =>
    db<CaseRow>('cases')
      .whereIn('assignment_id', db('assignments').where({ ambulance_id: ambulanceId }).select('id'))
      .andWhere((q) => q.whereNull('ambulance_id').orWhereNot({ ambulance_id: ambulanceId })),
  async insert(db: Db, row: Omit<CaseRow, 'version' | 'created_at' | 'updated_at' | 'closed_at' | 'latitude' | 'longitude' | 'location_accuracy' | 'location_at' | 'assignment_id'>) {
    const now = nowIso();
    await db('cases').insert({ ...row, version: 1, created_at: now, updated_at: now });
  },
  update: (db: Db, id: string, fields: CaseFields) =>
    db('cases').where({ id }).update({ ...fields, updated_at: nowIso(), version: db.raw('version + 1') }),
  /** Stores the patient's shared position on an active case; 0 when the case is not active. */
  setLocation: (db: Db, id: string, p: { latitude: number; longitude: number; accuracy: number | null; at: string }) =>
    db('cases').where({ id, status: 'active' }).update({
      latitude: p.latitude, longitude: p.longitude, location_accuracy: p.accuracy, location_at: p.at,
      updated_at: p.at, version: db.raw('version + 1'),
    }),
  delete: async (db: Db, id: string) => {
    await db('assignments').where({ case_id: id }).delete();
    await db('cases').where({ id }).delete();
  },
  /** Names the case's current assignment (part of the write that started it: no version of its own). */
  setAssignment: (db: Db, id: string, assignmentId: number) => db('cases').where({ id }).update({ assignment_id: assignmentId }),
  /** A new version of the row for a change that lives beside it (its assignment's times), so clients take the event. */
  touch: (db: Db, id: string) => db('cases').where({ id }).update({ updated_at: nowIso(), version: db.raw('version + 1') }),

  /**
   * Cases closed or resolved before `cutoffIso` that still hold a patient position or an intake location,
   * or whose timeline still holds one.
   */
  endedBeforeHoldingLocation: (db: Db, cutoffIso: string): Promise<string[]> =>
    db('cases')
      .whereIn('status', ENDED).where('closed_at', '<', cutoffIso)
      .where((q) => q.whereNotNull('location_at').orWhereNotNull('latitude').orWhereNotNull('longitude')
        .orWhereNotNull('intake_latitude').orWhereNotNull('intake_longitude').orWhereNotNull('intake_address')
        .orWhereExists(db('case_events').whereRaw('case_events.case_id = cases.id').where({ action: 'location' }).whereNot('after', REDACTED_JSON))
        .orWhereExists(holdingIntake(db('case_events').whereRaw('case_events.case_id = cases.id'))))
      .pluck('id'),
  /**
   * Clears the patient position and the intake location of a case closed or resolved before `cutoffIso`,
   * only while it still holds one (so that of several nodes running this at once, one clears it): 1 when it did, 0 otherwise.
   */
  clearLocationEndedBefore: (db: Db, id: string, cutoffIso: string): Promise<number> =>
    db('cases')
      .where({ id }).whereIn('status', ENDED).where('closed_at', '<', cutoffIso)
      .where((q) => q.whereNotNull('location_at').orWhereNotNull('latitude').orWhereNotNull('longitude')
        .orWhereNotNull('intake_latitude').orWhereNotNull('intake_longitude').orWhereNotNull('intake_address'))
      .update({
        latitude: null, longitude: null, location_accuracy: null, location_at: null,
        intake_latitude: null, intake_longitude: null, intake_address: null, intake_source: null,
        updated_at: nowIso(), version: db.raw('version + 1'),
      }),
};
