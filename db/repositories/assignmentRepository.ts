import { type AssignmentRow, type Db, insertedId, rowLocks, fetched } from './types';

/** The statuses of an assignment that is over. */
export const ENDED: readonly string[] = ['cleared', 'cancelled'];

/** The steps of an assignment (the contract's AssignmentStatus; db/ imports nothing above it). */
type AssignmentStatus = 'dispatched' | 'en_route' | 'on_scene' | 'transporting' | 'at_hospital' | 'handover' | 'cleared' | 'cancelled';
/** A step's time column, from the closed list of steps only (never a caller's text). */
export type AssignmentTimeField = `${AssignmentStatus}_at`;

export const assignmentRepository = {
  findById: (db: Db, id: number) => db<AssignmentRow>('assignments').where({ id }).first(),
  /** The open assignment of an ambulance (at most one: a unique index holds it). */
  openForAmbulance: (db: Db, ambulanceId: number) =>
    db<AssignmentRow>('assignments').where({ ambulance_id: ambulanceId }).whereNotIn('status', ENDED).first(),
  /** The open assignments of a case (its units still on the call), the first dispatched first. */
  openForCase: (db: Db, caseId: string) =>
    db<AssignmentRow>('assignments').where({ case_id: caseId }).whereNotIn('status', ENDED).orderBy([{ column: 'dispatched_at' }, { column: 'id' }]),
  /** The open assignment of an ambulance on one case (a driver link's own), if it is still open. */
  openFor: (db: Db, caseId: string, ambulanceId: number) =>
    db<AssignmentRow>('assignments').where({ case_id: caseId, ambulance_id: ambulanceId }).whereNotIn('status', ENDED).first(),
  /** The latest ended (cleared or cancelled) assignment of an ambulance to a case: a driver link's own, once over. */
  lastEnded: (db: Db, caseId: string, ambulanceId: number) =>
    db<AssignmentRow>('assignments').where({ case_id: caseId, ambulance_id: ambulanceId }).whereIn('status', ENDED).orderBy('id', 'desc').first(),
  /** An ambulance's first assignment after the given one (its next call), ended or not. */
  nextForAmbulance: (db: Db, ambulanceId: number, afterId: number) =>
    db<AssignmentRow>('assignments').where({ ambulance_id: ambulanceId }).where('id', '>', afterId).orderBy('id').first(),
  /** Every assignment a case had, the first first. */
  listForCase: (db: Db, caseId: string) => db<AssignmentRow>('assignments').where({ case_id: caseId }).orderBy('id'),
  /** Locks an assignment's row until the transaction ends. */
  lock: async (db: Db, id: number) => { if (rowLocks(db)) await db('assignments').where({ id }).forUpdate().select('id'); },
  async insert(db: Db, row: { case_id: string; ambulance_id: number; license_plate: string; capability: string; dispatched_at: string }): Promise<number> {
    return insertedId(await db('assignments').insert({ ...row, status: 'dispatched' }).returning('id'));
  },
  /** When the ambulance's last assignment ended (its latest clear or cancellation), or null. */
  async lastEndOf(db: Db, ambulanceId: number): Promise<string | null> {
    const row = await db('assignments').where({ ambulance_id: ambulanceId }).max({ end: db.raw('coalesce(cleared_at, cancelled_at)') }).first() as { end: string | null } | undefined;
    return row?.end ?? null;
  },
  /**
   * The ambulance's other assignment whose time overlaps [from, to) (`to` null: still running), the
   * earliest first: an assignment runs from its dispatch to its clear or cancellation, or on while open.
   */
  overlapping: (db: Db, ambulanceId: number, exceptId: number, from: string, to: string | null) =>
    fetched<AssignmentRow | undefined>(db<AssignmentRow>('assignments').where({ ambulance_id: ambulanceId }).whereNot({ id: exceptId })
      .modify((q) => { if (to != null) void q.where('dispatched_at', '<', to); })
      .where((q) => q.whereRaw('coalesce(cleared_at, cancelled_at) is null').orWhereRaw('coalesce(cleared_at, cancelled_at) > ?', [from]))
      .orderBy('dispatched_at').first()),
  /** Before an ambulance is deleted: its (ended) assignments keep its plate but no longer name it. */
  forgetAmbulance: (db: Db, ambulanceId: number) => db('assignments').where({ ambulance_id: ambulanceId }).update({ ambulance_id: null }),
  /** Moves an assignment to a step and records the step's time (or corrects a recorded time when `status` is left out). */
  update: (db: Db, id: number, fields: { status?: AssignmentStatus } & Partial<Record<AssignmentTimeField, string>>) =>
    db('assignments').where({ id }).update(fields),
  /** Sets where the unit conveys its patient (the hospital's name kept, like the plate). */
  setDestination: (db: Db, id: number, d: { hospital_id: number; name: string; reason: string; at: string }) =>
    db('assignments').where({ id }).update({
      destination_hospital_id: d.hospital_id, destination_name: d.name, destination_reason: d.reason, destination_set_at: d.at,
    }),
  /**
   * A hospital page's units: conveyed there and not over since `sinceIso` (handed over since then, or
   * without a handover: open or cleared since then), with the unit's latest fix for its arrival estimate.
   */
  forHospital: (db: Db, hospitalId: number, sinceIso: string) =>
    fetched<(AssignmentRow & { priority: number; unit_latitude: number | null; unit_longitude: number | null; position_at: string | null })[]>(
      db('assignments as a').join('cases as c', 'c.id', 'a.case_id').leftJoin('ambulances as am', 'am.id', 'a.ambulance_id')
        .where('a.destination_hospital_id', hospitalId)
        // Bounds the index range: no unit stays on one call for a week.
        .where('a.dispatched_at', '>=', new Date(Date.parse(sinceIso) - 7 * 86_400_000).toISOString())
        // Gone once its handover is before sinceIso, whatever the crew did since; without one, kept while open or cleared since then.
        .where((q) => q.where('a.handover_at', '>=', sinceIso)
          .orWhere((w) => w.whereNull('a.handover_at').where((o) => o.whereNotIn('a.status', ENDED).orWhere('a.cleared_at', '>=', sinceIso))))
        .whereNot('a.status', 'cancelled')
        .orderBy('a.id')
        .select('a.*', 'c.priority', 'am.latitude as unit_latitude', 'am.longitude as unit_longitude', 'am.position_at')),
};
