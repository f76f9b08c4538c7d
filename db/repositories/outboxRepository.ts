import { type Db, type OutboxRow, nowIso, rowLocks } from './types';

/** Who holds a claimed message and until when (a lease; see claimNext). */
export interface Lease { workerId: string; leaseMs: number }

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
  claim: (db: Db, id: number, lease?: Lease) =>
    db('outbox').where({ id, status: 'queued' }).update({
      status: 'sending', attempts: db.raw('attempts + 1'),
      ...(lease ? { claimed_by: lease.workerId, claimed_until: new Date(Date.now() + lease.leaseMs).toISOString() } : {}),
    }),
  /**
   * Claims the oldest message that is due, for `lease.leaseMs`, and answers it (or undefined).
   * PostgreSQL (several nodes): one statement picks a row with FOR UPDATE SKIP LOCKED, so
   * concurrent claimers never wait on or take the same row; a message whose lease ran out
   * (its node died mid-send) is due again. SQLite (one process per file, one connection):
   * the oldest queued message, claimed by a conditional update; a message left `sending` by
   * a crash is requeued at start instead (requeueInterrupted).
   */
  async claimNext(db: Db, lease: Lease): Promise<OutboxRow | undefined> {
    const now = nowIso();
    const until = new Date(Date.now() + lease.leaseMs).toISOString();
    if (rowLocks(db)) {
      const rows = await db.raw(
        `update outbox set status = 'sending', attempts = attempts + 1, claimed_by = ?, claimed_until = ?
          where id = (select id from outbox
                       where (status = 'queued' and next_attempt_at <= ?)
                          or (status = 'sending' and (claimed_until is null or claimed_until < ?))
                       order by id limit 1 for update skip locked)
          returning *`,
        [lease.workerId, until, now, now],
      );
      return rows.rows[0];
    }
    for (;;) {
      const [id] = await outboxRepository.due(db, 1);
      if (id === undefined) return undefined;
      if (await outboxRepository.claim(db, id, lease)) return outboxRepository.findById(db, id);
    }
  },
  /** The outcome of a send is recorded only by the worker that still holds the claim (undefined holder: any). */
  markSent: (db: Db, id: number, holder?: string) =>
    held(db, id, holder).update({ status: 'sent', sent_at: nowIso(), last_error: null, claimed_by: null, claimed_until: null }),
  retryLater: (db: Db, id: number, error: string, nextAttemptAt: string, holder?: string) =>
    held(db, id, holder).update({ status: 'queued', last_error: error, next_attempt_at: nextAttemptAt, claimed_by: null, claimed_until: null }),
  markFailed: (db: Db, id: number, error: string, holder?: string) =>
    held(db, id, holder).update({ status: 'failed', last_error: error, claimed_by: null, claimed_until: null }),
  /**
   * After a crash, messages caught mid-send go back to the queue. On SQLite (one process per
   * file) every `sending` message was this process's. On PostgreSQL other nodes may be sending
   * theirs right now: only messages whose lease ran out are requeued (claimNext would take them anyway).
   */
  requeueInterrupted: (db: Db) => {
    const q = db('outbox').where({ status: 'sending' });
    if (rowLocks(db)) q.where((w) => w.whereNull('claimed_until').orWhere('claimed_until', '<', nowIso()));
    return q.update({ status: 'queued', claimed_by: null, claimed_until: null });
  },
  countByStatus: (db: Db, status: OutboxRow['status']) =>
    db('outbox').where({ status }).count({ n: '*' }).first().then((r) => Number(r?.n ?? 0)),
};

function held(db: Db, id: number, holder?: string) {
  const q = db('outbox').where({ id });
  return holder === undefined ? q : q.where({ status: 'sending', claimed_by: holder });
}
