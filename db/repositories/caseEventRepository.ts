import { type CaseEventRow, type Db, nowIso } from './types';

export interface TimelineEntry {
  caseId: string;
  action: string;
  actor: { type: 'user' | 'patient' | 'driver' | 'system'; id?: number | null };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export const caseEventRepository = {
  insert: (db: Db, e: TimelineEntry) =>
    db('case_events').insert({
      case_id: e.caseId,
      action: e.action,
      actor_type: e.actor.type,
      actor_id: e.actor.id ?? null,
      before: e.before ? JSON.stringify(e.before) : null,
      after: e.after ? JSON.stringify(e.after) : null,
      created_at: nowIso(),
    }),
  listForCase: (db: Db, caseId: string) => db<CaseEventRow>('case_events').where({ case_id: caseId }).orderBy('id'),
  /** Of these cases, those whose timeline already has `action` by this staff member since `sinceIso`. */
  async recentlyBy(db: Db, action: string, userId: number, caseIds: string[], sinceIso: string): Promise<Set<string>> {
    const seen = new Set<string>();
    for (let i = 0; i < caseIds.length; i += 500) {
      const ids: string[] = await db('case_events')
        .where({ action, actor_type: 'user', actor_id: userId })
        .whereIn('case_id', caseIds.slice(i, i + 500))
        .where('created_at', '>=', sinceIso)
        .distinct('case_id')
        .pluck('case_id');
      for (const id of ids) seen.add(id);
    }
    return seen;
  },
};
