import { type Db, type OutboxRow, nowIso } from './types';

export interface NewMessage {
  kind: string; to: string; subject: string; text: string; links: string[]; caseId?: string | null;
}

export const outboxRepository = {
  async insert(db: Db, m: NewMessage): Promise<number> {
    const now = nowIso();
    const [row] = await db('outbox').insert({
      kind: m.kind, to_address: m.to, subject: m.subject, body_text: m.text, links: JSON.stringify(m.links),
      status: 'queued', attempts: 0, next_attempt_at: now, case_id: m.caseId ?? null, created_at: now,
    }).returning('id');
    return typeof row === 'object' ? row.id : row;
  },
  list: (db: Db) => db<OutboxRow>('outbox').orderBy('id', 'desc'),
  findById: (db: Db, id: number) => db<OutboxRow>('outbox').where({ id }).first(),
  /** Ids of queued messages that are due, oldest first. */
  due: (db: Db, limit: number) =>
    db<OutboxRow>('outbox').where('status', 'queued').where('next_attempt_at', '<=', nowIso())
      .orderBy('id').limit(limit).pluck('id') as Promise<number[]>,
  /** Claims one queued message for sending; 1 when this caller got it. */
  claim: (db: Db, id: number) =>
    db('outbox').where({ id, status: 'queued' }).update({ status: 'sending', attempts: db.raw('attempts + 1') }),
  markSent: (db: Db, id: number) => db('outbox').where({ id }).update({ status: 'sent', sent_at: nowIso(), last_error: null }),
  retryLater: (db: Db, id: number, error: string, nextAttemptAt: string) =>
    db('outbox').where({ id }).update({ status: 'queued', last_error: error, next_attempt_at: nextAttemptAt }),
  markFailed: (db: Db, id: number, error: string) => db('outbox').where({ id }).update({ status: 'failed', last_error: error }),
  /** After a crash, messages caught mid-send go back to the queue. */
  requeueInterrupted: (db: Db) => db('outbox').where({ status: 'sending' }).update({ status: 'queued' }),
  countByStatus: (db: Db, status: OutboxRow['status']) =>
    db('outbox').where({ status }).count({ n: '*' }).first().then((r) => Number(r?.n ?? 0)),
};
