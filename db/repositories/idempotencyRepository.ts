import { type Db, insertedId, nowIso } from './types';

export interface IdempotencyRow {
  id: number; user_id: number; key: string; request_hash: string; status: 'running' | 'done';
  response_status: number | null; response_body: string | null; owner: string; created_at: string; updated_at: string;
}

export const idempotencyRepository = {
  /**
   * Claims (user, key) for one request, atomically: the unique constraint lets exactly one
   * insert win. Answers the new row's id, or undefined when the key is already held.
   */
  async claim(db: Db, c: { userId: number; key: string; requestHash: string; owner: string }): Promise<number | undefined> {
    const now = nowIso();
    const rows = await db('idempotency_keys')
      .insert({ user_id: c.userId, key: c.key, request_hash: c.requestHash, status: 'running', owner: c.owner, created_at: now, updated_at: now })
      .onConflict(['user_id', 'key']).ignore()
      .returning('id');
    // None when the key was there already (the conflict was ignored).
    return rows.length === 0 ? undefined : insertedId(rows);
  },
  find: (db: Db, userId: number, key: string) =>
    db<IdempotencyRow>('idempotency_keys').where({ user_id: userId, key }).first(),
  /** Takes over a running claim whose holder is gone; 1 when this caller got it (compare-and-set on owner and time). */
  takeOver: (db: Db, row: Pick<IdempotencyRow, 'id' | 'owner' | 'updated_at'>, owner: string) =>
    db('idempotency_keys').where({ id: row.id, status: 'running', owner: row.owner, updated_at: row.updated_at })
      .update({ owner, updated_at: nowIso() }),
  /** Stores the answer of a running claim this owner holds; 1 when stored. */
  complete: (db: Db, id: number, owner: string, status: number, body: unknown) =>
    db('idempotency_keys').where({ id, status: 'running', owner })
      .update({ status: 'done', response_status: status, response_body: JSON.stringify(body ?? null), updated_at: nowIso() }),
  /** Replaces a stored answer (only if the answer stored with a write differed from the one sent). */
  replaceAnswer: (db: Db, id: number, status: number, body: unknown) =>
    db('idempotency_keys').where({ id, status: 'done' }).update({ response_status: status, response_body: JSON.stringify(body ?? null), updated_at: nowIso() }),
  /** Lets go of a running claim (the request failed with a 5xx): a retry may run. */
  release: (db: Db, id: number, owner: string) => db('idempotency_keys').where({ id, status: 'running', owner }).delete(),
  /** Removes one expired key (so it can be claimed afresh). */
  deleteIfExpired: (db: Db, id: number, before: string) => db('idempotency_keys').where({ id }).where('created_at', '<', before).delete(),
  /** Removes every key created before `before`. */
  deleteExpired: (db: Db, before: string) => db('idempotency_keys').where('created_at', '<', before).delete(),
};
