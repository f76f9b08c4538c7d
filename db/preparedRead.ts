import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { type Db, clientName } from './repositories/types';

interface SqlitePool {
  acquireConnection(): Promise<BetterSqlite3.Database>;
  releaseConnection(conn: BetterSqlite3.Database): Promise<void>;
}

const preparedBy = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function statement(conn: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let bySql = preparedBy.get(conn);
  if (!bySql) preparedBy.set(conn, (bySql = new Map<string, BetterSqlite3.Statement>()));
  let s = bySql.get(sql);
  if (!s) bySql.set(sql, (s = conn.prepare(sql)));
  return s;
}

/**
 * The first row of a read that runs on every request of the hottest kind (a link's token on each
 * device position and tracking poll). On SQLite it is a statement prepared once per connection:
 * Knex prepares every query again, which the bench's profile showed as the largest cost of the
 * REST position path (BENCHMARKS.md). Elsewhere, and inside a transaction, the same SQL through
 * Knex. `sql` is written once, with `?` placeholders, for both engines. The prepared read is
 * announced as Knex's own `query` event, so that whoever watches the statements (a query log, a
 * test counting them) sees it as it sees every other.
 */
export async function preparedFirst<T>(db: Db, sql: string, bindings: readonly (string | number | null)[]): Promise<T | undefined> {
  if (clientName(db) === 'better-sqlite3' && !(db as Knex.Transaction).isTransaction) {
    const pool = db.client as SqlitePool;
    const conn = await pool.acquireConnection();
    try {
      db.emit('query', { sql, bindings, method: 'first', prepared: true });
      return statement(conn, sql).get(...bindings) as T | undefined;
    } finally {
      await pool.releaseConnection(conn);
    }
  }
  const result = (await db.raw(sql, bindings)) as T[] | { rows: T[] };
  return Array.isArray(result) ? result[0] : result.rows[0];
}
