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
};
