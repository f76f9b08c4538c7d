import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrationSource';

export function isPostgresUrl(url: string) {
  return /^postgres(ql)?:\/\//.test(url);
}

/** A postgres:// URL may name a schema with `?schema=NAME` (tests use a fresh one per run). */
export function postgresSchema(url: string): { connection: string; schema?: string } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name in DATABASE_URL: ${schema}`);
  u.searchParams.delete('schema');
  return { connection: u.toString(), schema };
}

/**
 * Values come back as the same JavaScript types as from SQLite: NUMERIC (the case's patient
 * position, decimal columns) as numbers rather than strings, and BIGINT (count(*)) as numbers
 * while they are exact. Otherwise the same code would write `"17.41000000"` into a timeline
 * entry on PostgreSQL and `17.41` on SQLite.
 */
const NUMERIC_OID = 1700;
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: string): any {
    if (oid === NUMERIC_OID && format !== 'binary') return (v: string) => (v === null ? null : Number(v));
    if (oid === INT8_OID && format !== 'binary') return (v: string) => (v === null ? null : Number.isSafeInteger(Number(v)) ? Number(v) : v);
    return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
  },
};

/**
 * Knex config for a DATABASE_URL: a SQLite file path (embedded default) or postgres://.
 * SQLite runs on one connection, so write transactions are serialised by the pool and
 * can never deadlock; WAL with synchronous=FULL makes every commit durable.
 */
export function knexConfig(databaseUrl: string): Knex.Config {
  const migrations = { migrationSource, tableName: 'knex_migrations' };
  if (isPostgresUrl(databaseUrl)) {
    const { connection, schema } = postgresSchema(databaseUrl);
    return {
      client: 'pg',
      connection: { connectionString: connection, types: pgTypes },
      searchPath: schema ? [schema] : undefined,
      pool: {
        min: 0,
        max: 10,
        // The schema must exist before the search path can use it. `create schema if not
        // exists` is not safe against a concurrent create (several nodes or pool connections
        // starting at once): the loser gets a unique violation, which means the schema exists.
        afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
          if (!schema) return done(null, conn);
          conn.query(`create schema if not exists "${schema}"`, (err: (Error & { code?: string }) | null) =>
            done(err && err.code !== '23505' && err.code !== '42P06' ? err : null, conn));
        },
      },
      migrations,
    };
  }
  if (databaseUrl !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(databaseUrl)), { recursive: true });
  return {
    client: 'better-sqlite3',
    connection: { filename: databaseUrl },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
        try {
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = FULL');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('foreign_keys = ON');
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
    acquireConnectionTimeout: 20_000,
    migrations,
  };
}

/** Key of the session advisory lock that serialises migrations (and the demo seed) across nodes. */
export const MIGRATION_LOCK_KEY = 7_104_201;

export function openDatabase(databaseUrl: string): Knex {
  const db = knex(knexConfig(databaseUrl));
  if (isPostgresUrl(databaseUrl)) serialiseMigrations(db);
  return db;
}

/**
 * Several nodes starting at once on PostgreSQL all call `migrate.latest()`. Knex's own lock
 * row is not enough there: on a fresh database every node finds no `knex_migrations` tables,
 * creates them and inserts a lock row (duplicate tables or two lock rows, then "Migration table
 * is already locked"). So `latest` first takes a PostgreSQL advisory lock (per schema, on
 * a connection held for the whole run): the other nodes wait, then find nothing left to do.
 */
function serialiseMigrations(db: Knex) {
  // `db.migrate` is a getter answering a new Migrator each time: wrap what it answers.
  const own = Object.getOwnPropertyDescriptor(db, 'migrate');
  if (!own?.get) throw new Error('knex: cannot wrap db.migrate');
  Object.defineProperty(db, 'migrate', {
    configurable: true,
    get() {
      const migrator = own.get!.call(this) as Knex.Migrator;
      const latest = migrator.latest.bind(migrator);
      migrator.latest = ((config?: Knex.MigratorConfig) => withAdvisoryLock(db, MIGRATION_LOCK_KEY, () => latest(config))) as typeof migrator.latest;
      return migrator;
    },
  });
}

/**
 * Runs `fn` while holding a session-level advisory lock (waiting for it), keyed by `key` and
 * the connection's schema, on a connection of its own; `fn` itself runs on the pool.
 */
export async function withAdvisoryLock<T>(db: Knex, key: number, fn: () => Promise<T>): Promise<T> {
  const conn = await db.client.acquireConnection();
  const query = (sql: string) => new Promise<void>((resolve, reject) => conn.query(sql, (err: Error | null) => (err ? reject(err) : resolve())));
  try {
    await query(`select pg_advisory_lock(${key}, hashtext(current_schema())::int)`);
    try {
      return await fn();
    } finally {
      await query(`select pg_advisory_unlock(${key}, hashtext(current_schema())::int)`).catch(() => undefined);
    }
  } finally {
    await db.client.releaseConnection(conn);
  }
}

export const isSqlite = (db: Knex) => db.client.config.client === 'better-sqlite3';
