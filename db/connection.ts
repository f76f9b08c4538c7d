import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { withAdvisoryLock } from './advisoryLock';
import { migrationSource } from './migrationSource';
import { type Db, clientName } from './repositories/types';

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
  getTypeParser(oid: number, format?: string): (v: string) => unknown {
    if (oid === NUMERIC_OID && format !== 'binary') return (v: string) => (v === null ? null : Number(v));
    if (oid === INT8_OID && format !== 'binary') return (v: string) => (v === null ? null : Number.isSafeInteger(Number(v)) ? Number(v) : v);
    return (pg.types.getTypeParser as (oid: number, format?: string) => (v: string) => unknown)(oid, format);
  },
};

/**
 * Limits every PostgreSQL session of the server carries, so that no statement and no forgotten transaction
 * holds rows (an ambulance's, a call's) for ever: a statement is cancelled after 2 minutes (the longest
 * reads are a year's report slices, seconds each; a migration's index build on a big table is the case to
 * watch), and a transaction left idle for a minute between its statements (a bug awaiting something that
 * never comes while holding its locks) is ended by the server, which frees its locks. Waiting for a lock is
 * not idle: a position waiting for its ambulance's row (positionWriter's lanes) is bounded by the statement limit.
 */
export const PG_SESSION_TIMEOUTS = { statement_timeout: 120_000, idle_in_transaction_session_timeout: 60_000 };

/** Connections per node: the position writer's queue, up to 3 lanes waiting for held rows, requests and jobs. */
export const PG_POOL_MAX = 10;

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
      connection: { connectionString: connection, types: pgTypes, ...PG_SESSION_TIMEOUTS },
      searchPath: schema ? [schema] : undefined,
      pool: {
        min: 0,
        max: PG_POOL_MAX,
        // The schema must exist before the search path can use it. `create schema if not
        // exists` is not safe against a concurrent create (several nodes or pool connections
        // starting at once): the loser gets a unique violation, which means the schema exists.
        afterCreate(conn: pg.Client, done: (err: Error | null, conn: unknown) => void) {
          if (!schema) return done(null, conn);
          conn.query(`create schema if not exists "${schema}"`, (err: (Error & { code?: string }) | null) =>
            done(err && err.code !== '23505' && err.code !== '42P06' ? err : null, conn));
        },
      },
      migrations,
    };
  }
  if (databaseUrl !== ':memory:') prepareSqliteFile(databaseUrl);
  return {
    client: 'better-sqlite3',
    connection: { filename: databaseUrl },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: Sqlite.Database, done: (err: Error | null, conn: unknown) => void) {
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

/** The connection pool's state (connections used, free, and acquires waiting): for metrics and the slow-request log. */
export function poolState(db: Knex): { used: number; free: number; pending: number } | undefined {
  const pool = (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
  return pool ? { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() } : undefined;
}

/**
 * A read-only connection of its own to the SQLite file behind `db`, for a long read (a year's
 * report) that must not hold the pool's one connection for seconds: in WAL mode it reads a
 * snapshot while the server goes on writing. Undefined on PostgreSQL (whose pool has several
 * connections), inside a transaction (whose writes only its own connection sees), and for an
 * in-memory database (which no other connection can open). The caller closes it.
 */
export function openSqliteReader(db: Db): Sqlite.Database | undefined {
  if (clientName(db) !== 'better-sqlite3' || (db as Knex.Transaction).isTransaction) return undefined;
  const { filename } = (db.client as { config: { connection: { filename?: string } } }).config.connection;
  if (!filename || filename === ':memory:' || filename.startsWith('file:')) return undefined;
  const reader = new Sqlite(filename, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  return reader;
}

/** A SQLite DATABASE_URL the server cannot use: the message names the path and the cause. */
export class DatabaseOpenError extends Error {
  constructor(file: string, cause: string) {
    super(`Cannot open the SQLite database at ${file}: ${cause}`);
    this.name = 'DatabaseOpenError';
  }
}

/** `permission denied (EACCES)` from a Node file-system error, whose message reads `EACCES: permission denied, open '…'`. */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const text = /^[A-Z0-9]+: ([^,]+)/.exec(e?.message ?? '')?.[1] ?? String(e?.message ?? err);
  return e?.code ? `${text} (${e.code})` : text;
}

/** stat, or undefined where nothing is (a missing entry, or a path through a file). */
function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new Error(`cannot reach ${p}: ${reason(err)}`, { cause: err });
  }
}

/**
 * Makes sure SQLite can create or write the database file, so that a bad DATABASE_URL stops
 * the start with its real cause rather than SQLite's "unable to open database file": the
 * directories are created one level at a time (Node's recursive mkdir never returns on
 * file systems such as /proc, which answer ENOENT for a parent that exists), a regular file
 * where a directory should be is named, the file must open for reading and writing, and
 * the directory must take the -wal and -shm files that WAL mode keeps beside the database.
 */
export function prepareSqliteFile(databaseUrl: string) {
  const file = path.resolve(databaseUrl);
  const fail = (cause: string): never => { throw new DatabaseOpenError(file, cause); };
  try {
    const dir = path.dirname(file);
    const missing: string[] = [];
    let existing = dir;
    let st = statOf(existing);
    while (!st) {
      missing.unshift(existing);
      existing = path.dirname(existing);
      st = statOf(existing);
    }
    if (!st.isDirectory()) fail(`${existing} is a file, not a directory (ENOTDIR)`);
    for (const d of missing) {
      try {
        fs.mkdirSync(d);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') fail(`cannot create the directory ${d}: ${reason(err)}`);
      }
    }
    const own = statOf(file);
    if (own?.isDirectory()) fail(`${file} is a directory, not a file (EISDIR)`);
    try {
      // r+ opens an existing file for reading and writing without changing it; `a` creates a missing one, as SQLite would.
      fs.closeSync(fs.openSync(file, own ? 'r+' : 'a'));
    } catch (err) {
      fail(`${own ? 'cannot write' : 'cannot create'} ${file}: ${reason(err)}`);
    }
    for (const side of [`${file}-wal`, `${file}-shm`]) {
      const sideFile = statOf(side);
      try {
        if (sideFile) fs.closeSync(fs.openSync(side, 'r+'));
        else fs.accessSync(dir, fs.constants.W_OK);
      } catch (err) {
        fail(sideFile ? `cannot write ${side}: ${reason(err)}` : `the directory ${dir} is not writable, and SQLite keeps its -wal and -shm files there: ${reason(err)}`);
      }
    }
  } catch (err) {
    if (err instanceof DatabaseOpenError) throw err;
    fail((err as Error).message);
  }
}

/**
 * Opens the first connection, so that a file SQLite cannot use (not a database, corrupt,
 * read-only) stops the start with its path and SQLite's own cause. PostgreSQL's connection
 * errors already name their cause.
 */
export async function verifyDatabase(db: Knex, databaseUrl: string) {
  if (!isSqlite(db) || databaseUrl === ':memory:') return;
  try {
    // Reads the file's header: a file that is not a database fails here, not in a migration.
    await db.raw('pragma schema_version');
  } catch (err) {
    const e = err as { code?: string; message?: string };
    throw new DatabaseOpenError(path.resolve(databaseUrl), e.code ? `${e.message} (${e.code})` : String(e.message ?? err));
  }
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

export const isSqlite = (db: Knex) => clientName(db) === 'better-sqlite3';
