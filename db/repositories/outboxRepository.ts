import type { Knex } from 'knex';
import { type Db, type OutboxRow, insertedId, nowIso, rowLocks, fetched } from './types';

/** Who holds a claimed message and until when (a lease; see claimNext). */
export interface Lease { workerId: string; leaseMs: number }

export interface NewMessage {
  kind: string; to: string; subject: string; text: string; links: string[]; caseId?: string | null;
  /** The live secrets the text and links carry (link tokens, a sign-in code): kept only until the message is sent. */
  secrets?: string[];
  /** When the secrets stop working by themselves (a sign-in code); links die with their case instead. */
  secretsExpireAt?: string | null;
}

/**
 * While the links of a case's mail work, by the case's status: for the mail kinds named in
 * `byKind`, their statuses; for every other kind, `others` (the rule is the services' link
 * policy, passed in: this layer imports none).
 */
export interface MailLinkLife {
  byKind: Readonly<Record<string, readonly string[]>>;
  others: readonly string[];
}

/** What stands where a secret was. */
export const REDACTED_SECRET = '…';

/** `text` with every occurrence of each secret replaced by REDACTED_SECRET (longest first, so none is left in part). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return [...secrets].sort((a, b) => b.length - a.length).reduce((t, s) => t.split(s).join(REDACTED_SECRET), text);
}

/**
 * The stored body and links lose their secrets (one statement: the columns on the right are
 * read as they were). Nothing else keeps them.
 */
const dropSecrets = (db: Db) => ({
  body_text: db.raw('coalesce(body_redacted, body_text)'),
  links: db.raw('coalesce(links_redacted, links)'),
  body_redacted: null, links_redacted: null, secrets_expire_at: null,
});

export const outboxRepository = {
  /**
   * Queues a message. With secrets, the copy it is kept as once sent (each secret as `…`; links
   * keep their path) is stored beside it, so that sending never needs the secrets again.
   */
  async insert(db: Db, m: NewMessage): Promise<number> {
    const now = nowIso();
    const secrets = (m.secrets ?? []).filter((x) => x.length > 0 && (m.text.includes(x) || m.links.some((l) => l.includes(x))));
    const redacted = secrets.length > 0
      ? { body_redacted: redactSecrets(m.text, secrets), links_redacted: JSON.stringify(m.links.map((l) => redactSecrets(l, secrets))), secrets_expire_at: m.secretsExpireAt ?? null }
      : {};
    return insertedId(await db('outbox').insert({
      kind: m.kind, to_address: m.to, subject: m.subject, body_text: m.text, links: JSON.stringify(m.links),
      status: 'queued', attempts: 0, next_attempt_at: now, case_id: m.caseId ?? null, created_at: now, ...redacted,
    }).returning('id'));
  },
  /**
   * The admin's outbox, within one status when given, as a query still to be ordered and
   * limited: the caller pages it by keyset on (created_at, id), which the migration
   * 20261127000300_outbox_page_index serves with and without a status.
   */
  listQuery: (db: Db, status?: OutboxRow['status']) => {
    const q = db<OutboxRow>('outbox').select('outbox.*');
    return status ? q.where('outbox.status', status) : q;
  },
  /**
   * How many messages there are (within one status when given), counting at most `cap` + 1:
   * a LIMITed subquery, so a year of mail is not counted row by row for every page.
   */
  async countUpTo(db: Db, cap: number, status?: OutboxRow['status']): Promise<number> {
    const rows = db('outbox').select(db.raw('1')).limit(cap + 1);
    if (status) rows.where('status', status);
    const counted = (await db.count({ n: '*' }).from(rows.as('m')).first()) as { n: number | string } | undefined;
    return Number(counted?.n ?? 0);
  },
  findById: (db: Db, id: number) => db<OutboxRow>('outbox').where({ id }).first(),
  /** The newest message's id (0 with none): where a starting worker's "new since start" begins. */
  latestId: async (db: Db) => Number((await db('outbox').max({ id: 'id' }).first())?.id ?? 0),
  /** Ids of queued messages that are due, oldest first (only those after `afterId` when given). */
  due: (db: Db, limit: number, afterId = 0) =>
    fetched<number[]>(db<OutboxRow>('outbox').where('status', 'queued').where('next_attempt_at', '<=', nowIso()).where('id', '>', afterId)
      .orderBy('id').limit(limit).pluck('id')),
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
      const { rows } = await db.raw<{ rows: OutboxRow[] }>(
        `update outbox set status = 'sending', attempts = attempts + 1, claimed_by = ?, claimed_until = ?
          where id = (select id from outbox
                       where (status = 'queued' and next_attempt_at <= ?)
                          or (status = 'sending' and (claimed_until is null or claimed_until < ?))
                       order by id limit 1 for update skip locked)
          returning *`,
        [lease.workerId, until, now, now],
      );
      return rows[0];
    }
    for (;;) {
      const [id] = await outboxRepository.due(db, 1);
      if (id === undefined) return undefined;
      if (await outboxRepository.claim(db, id, lease)) return outboxRepository.findById(db, id);
    }
  },
  /** The outcome of a send is recorded only by the worker that still holds the claim (undefined holder: any). */
  markSent: (db: Db, id: number, holder?: string) =>
    held(db, id, holder).update({ status: 'sent', sent_at: nowIso(), last_error: null, claimed_by: null, claimed_until: null, ...dropSecrets(db) }),
  retryLater: (db: Db, id: number, error: string, nextAttemptAt: string, holder?: string) =>
    held(db, id, holder).update({ status: 'queued', last_error: error, next_attempt_at: nextAttemptAt, claimed_by: null, claimed_until: null }),
  markFailed: (db: Db, id: number, error: string, holder?: string) =>
    held(db, id, holder).update({ status: 'failed', last_error: error, claimed_by: null, claimed_until: null, ...dropSecrets(db) }),
  /**
   * Queued messages whose secrets no longer work lose them: a sign-in code past its expiry, the
   * links of a case whose status no longer keeps them (`life`: a patient's location link lives
   * while the call waits or is active, tracking links while it is active), or that no longer
   * exists. Conditional, so idempotent and safe with several nodes; a message being sent right
   * now is left to markSent.
   */
  redactDeadSecrets: (db: Db, now: string, life: MailLinkLife) => {
    const kinds = Object.keys(life.byKind);
    const deadCase = (statuses: readonly string[]) => (q: Knex.QueryBuilder) =>
      q.whereNotExists(db('cases').whereRaw('cases.id = outbox.case_id').whereIn('cases.status', [...statuses]));
    return db('outbox').where({ status: 'queued' }).whereNotNull('body_redacted')
      .where((q) => {
        q.where('secrets_expire_at', '<', now);
        for (const kind of kinds) q.orWhere((c) => deadCase(life.byKind[kind])(c.whereNotNull('case_id').where('kind', kind)));
        q.orWhere((c) => deadCase(life.others)(kinds.length ? c.whereNotNull('case_id').whereNotIn('kind', kinds) : c.whereNotNull('case_id')));
      })
      .update(dropSecrets(db));
  },
  /** Deletes up to `limit` messages sent or failed before `cutoff` (a failed one counts from when it was queued). */
  async deleteFinishedBefore(db: Db, cutoff: string, limit: number): Promise<number> {
    const finished = (q: Knex.QueryBuilder) => q
      .where((w) => w.where('status', 'sent').where('sent_at', '<', cutoff)
        .orWhere((f) => f.where('status', 'failed').where('created_at', '<', cutoff)));
    const ids = (await finished(db('outbox')).orderBy('id').limit(limit).pluck('id')) as number[];
    if (ids.length === 0) return 0;
    return finished(db('outbox').whereIn('id', ids)).delete();
  },
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
