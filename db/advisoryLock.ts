import type { Knex } from 'knex';

/**
 * PostgreSQL advisory locks, keyed by a number or a name (hashed by PostgreSQL) together with
 * the connection's schema, so that databases sharing a server under different schemas (the
 * tests') never wait for one another. SQLite has none: its callers serialise on its one connection.
 */
export type LockKey = number | string;

const keySql = (key: LockKey) => (typeof key === 'number' ? '$1::int' : 'hashtext($1)');
const SCHEMA = 'hashtext(current_schema())::int';

type Rows = { rows: Record<string, unknown>[] };
type Query = (sql: string, values: unknown[]) => Promise<Rows>;
/** The parts of knex's client and of a pg connection used here (knex types its client as any). */
interface PgConnection { query(sql: string, values: unknown[], done: (err: Error | null, res: Rows) => void): void }
interface PoolClient { acquireConnection(): Promise<PgConnection>; releaseConnection(conn: PgConnection): Promise<void> }

/**
 * Takes a session-level lock on a connection of its own (it goes with the connection if the
 * node dies) and runs `fn` — on the pool — while holding it. `wait: false` gives up at once
 * when another session holds the lock.
 */
async function holding<T>(db: Knex, key: LockKey, wait: boolean, fn: () => Promise<T>): Promise<{ locked: true } | { locked: false; result: T }> {
  const client = db.client as PoolClient;
  const conn = await client.acquireConnection();
  const query: Query = (sql, values) => new Promise((resolve, reject) => conn.query(sql, values, (err, res) => (err ? reject(err) : resolve(res))));
  const values = [key];
  try {
    const got = await query(`select ${wait ? 'pg_advisory_lock' : 'pg_try_advisory_lock'}(${keySql(key)}, ${SCHEMA}) as ok`, values);
    if (!wait && !got.rows[0]?.ok) return { locked: true };
    try {
      return { locked: false, result: await fn() };
    } finally {
      await query(`select pg_advisory_unlock(${keySql(key)}, ${SCHEMA})`, values).catch(() => undefined);
    }
  } finally {
    await client.releaseConnection(conn);
  }
}

/** Runs `fn` while holding the lock `key`, waiting for it. */
export async function withAdvisoryLock<T>(db: Knex, key: LockKey, fn: () => Promise<T>): Promise<T> {
  const held = await holding(db, key, true, fn);
  if (held.locked) throw new Error('advisory lock: not taken although waited for');
  return held.result;
}

/** Runs `fn` only if the lock `key` is free; `{ locked: true }` when another session holds it. */
export const tryWithAdvisoryLock = <T>(db: Knex, key: LockKey, fn: () => Promise<T>) => holding(db, key, false, fn);

/** Locks `key` until the transaction ends (waiting for it). */
export async function lockForTransaction(trx: Knex.Transaction, key: LockKey) {
  await trx.raw(`select pg_advisory_xact_lock(${typeof key === 'number' ? '?::int' : 'hashtext(?)'}, ${SCHEMA})`, [key]);
}
