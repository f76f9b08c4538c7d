import type { Knex } from 'knex';
import { type CaseEventRow, type Db, type PatientLocationFields, nowIso } from './types';

type EntryText = Pick<CaseEventRow, 'id' | 'before' | 'after'>;

export interface TimelineEntry {
  caseId: string;
  action: string;
  actor: { type: 'user' | 'patient' | 'driver' | 'system' | 'hospital'; id?: number | null };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** When it happened; now when absent. */
  at?: string;
}

/** One side of an entry as its fields. */
export type EntryFields = Record<string, unknown>;
/** An entry as the timeline reads it: each side parsed once, here. */
export type CaseEventRecord = Omit<CaseEventRow, 'before' | 'after'> & { before: EntryFields | null; after: EntryFields | null };

/** A side as stored (JSON text of an object) read back: its fields, or null when absent or unreadable. */
export function entryFields(json: string | null): EntryFields | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as EntryFields) : null;
  } catch {
    return null;
  }
}

/** Entries that wrote a place of the intake location: a creation or an edit whose sides still name one of `keys`. */
export const holdingIntake = (q: Knex.QueryBuilder, keys: readonly string[], table = 'case_events') =>
  q.whereIn(`${table}.action`, ['created', 'updated']).where((w) => {
    for (const k of keys) w.orWhere(`${table}.before`, 'like', `%"${k}"%`).orWhere(`${table}.after`, 'like', `%"${k}"%`);
  });

export const caseEventRepository = {
  insert: (db: Db, e: TimelineEntry) =>
    db('case_events').insert({
      case_id: e.caseId,
      action: e.action,
      actor_type: e.actor.type,
      actor_id: e.actor.id ?? null,
      before: e.before ? JSON.stringify(e.before) : null,
      after: e.after ? JSON.stringify(e.after) : null,
      created_at: e.at ?? nowIso(),
    }),
  /** A case's timeline, oldest first, each side an object. */
  listForCase: async (db: Db, caseId: string): Promise<CaseEventRecord[]> =>
    (await db<CaseEventRow>('case_events').where({ case_id: caseId }).orderBy('id'))
      .map((e) => ({ ...e, before: entryFields(e.before), after: entryFields(e.after) })),
  /** Of these cases, those whose timeline already has `action` by this staff member since `sinceIso`. */
  recentlyBy: (db: Db, action: string, userId: number, caseIds: string[], sinceIso: string) =>
    caseEventRepository.recentlyByActor(db, action, { type: 'user', id: userId }, caseIds, sinceIso),
  /** Of these cases, those whose timeline already has `action` by this actor (a staff member, a hospital's page) since `sinceIso`. */
  async recentlyByActor(db: Db, action: string, actor: { type: 'user' | 'hospital'; id: number }, caseIds: string[], sinceIso: string): Promise<Set<string>> {
    const seen = new Set<string>();
    for (let i = 0; i < caseIds.length; i += 500) {
      const ids = await db<CaseEventRow>('case_events')
        .where({ action, actor_type: actor.type, actor_id: actor.id })
        .whereIn('case_id', caseIds.slice(i, i + 500))
        .where('created_at', '>=', sinceIso)
        .distinct('case_id')
        .pluck('case_id');
      for (const id of ids) seen.add(id);
    }
    return seen;
  },

  /** Up to `limit` of a case's 'location' entries whose coordinates are not yet redacted. */
  locationEntriesToRedact: (db: Db, caseId: string, limit: number, redacted: PatientLocationFields['redactedShare']): Promise<EntryText[]> =>
    db('case_events')
      .where({ case_id: caseId, action: 'location' })
      .where((q) => q.whereNot('after', redacted).orWhereNull('after').orWhere((b) => b.whereNotNull('before').whereNot('before', redacted)))
      .limit(limit).select('id', 'before', 'after'),
  /** Up to `limit` of a case's creation and edit entries that still hold the place of an intake location. */
  intakeEntriesToRedact: (db: Db, caseId: string, limit: number, keys: PatientLocationFields['editKeys']): Promise<EntryText[]> =>
    holdingIntake(db('case_events').where({ case_id: caseId }), keys).orderBy('id').limit(limit).select('id', 'before', 'after'),
  /**
   * Rewrites an entry's `before`/`after` only while they still hold what was read (compare-and-set:
   * of several nodes at once, one rewrites it): 1 when it did, 0 otherwise.
   */
  rewrite: (db: Db, was: EntryText, now: Partial<Pick<CaseEventRow, 'before' | 'after'>>): Promise<number> => {
    const q = db('case_events').where({ id: was.id });
    for (const column of ['before', 'after'] as const) {
      if (!(column in now)) continue;
      const value = was[column];
      if (value == null) q.whereNull(column); else q.where(column, value);
    }
    return q.update(now);
  },
  /** Deleted cases (deleted before `cutoffIso`) whose 'location' entries still hold coordinates. */
  deletedBeforeHoldingLocation: (db: Db, cutoffIso: string, redacted: PatientLocationFields['redactedShare']): Promise<string[]> =>
    db('case_events as e')
      .where('e.action', 'location')
      .where((q) => q.whereNot('e.after', redacted).orWhereNull('e.after'))
      .whereNotExists(db('cases').whereRaw('cases.id = e.case_id'))
      .whereExists(db('case_events as d').whereRaw('d.case_id = e.case_id').where('d.action', 'deleted').where('d.created_at', '<', cutoffIso))
      .distinct('e.case_id').pluck('e.case_id'),
  /** Deleted cases (deleted before `cutoffIso`) whose creation or edit entries still hold an intake location's place. */
  deletedBeforeHoldingIntake: (db: Db, cutoffIso: string, keys: PatientLocationFields['editKeys']): Promise<string[]> =>
    holdingIntake(db('case_events as e'), keys, 'e')
      .whereNotExists(db('cases').whereRaw('cases.id = e.case_id'))
      .whereExists(db('case_events as d').whereRaw('d.case_id = e.case_id').where('d.action', 'deleted').where('d.created_at', '<', cutoffIso))
      .distinct('e.case_id').pluck('e.case_id'),
  /** 'deleted' entries before `cutoffIso` whose copy of the case may still hold its position. */
  deletedCopiesBefore: (db: Db, cutoffIso: string): Promise<{ id: number; before: string }[]> =>
    db('case_events')
      .where({ action: 'deleted' }).where('created_at', '<', cutoffIso)
      .whereNotNull('before').whereNot('before', 'like', '%"latitude":null%')
      .select('id', 'before'),
};
