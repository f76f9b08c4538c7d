import type { AssignmentRow, CaseEventRow, CaseRow, Db } from './types';

/**
 * Whole-table reads for the reliability checks (the invariants, the crash loop's audit of what
 * was acknowledged): what was written, as stored. Never used to serve a request.
 */
export const auditRepository = {
  ambulances: (db: Db): Promise<{ id: number; status: string; license_plate: string }[]> => db('ambulances').select('id', 'status', 'license_plate'),
  cases: (db: Db): Promise<CaseRow[]> => db<CaseRow>('cases').select('*'),
  assignments: (db: Db): Promise<AssignmentRow[]> => db<AssignmentRow>('assignments').orderBy('id').select('*'),
  /** Every timeline entry, in the order it was written. */
  caseEvents: (db: Db): Promise<CaseEventRow[]> => db<CaseEventRow>('case_events').orderBy('id').select('*'),
  /** Every position fix recorded (where, not when). */
  positionPoints: (db: Db): Promise<{ ambulance_id: number; latitude: number; longitude: number }[]> =>
    db('ambulance_positions').select('ambulance_id', 'latitude', 'longitude'),
  /** Every queued e-mail's state and how often it was claimed for sending. */
  outboxStates: (db: Db): Promise<{ id: number; kind: string; case_id: string | null; status: string; attempts: number }[]> =>
    db('outbox').select('id', 'kind', 'case_id', 'status', 'attempts'),
  /** How many e-mails still wait to be sent (queued or being sent). */
  outboxUnsent: async (db: Db) => Number((await db('outbox').whereIn('status', ['queued', 'sending']).count({ n: '*' }).first())?.n ?? 0),
  /** The cases whose description is `description` (a marker the load wrote). */
  caseIdsDescribed: (db: Db, description: string): Promise<string[]> => db('cases').where({ description }).pluck('id'),
};
