import knex, { type Knex } from 'knex';
import { isPostgresUrl, postgresSchema } from '../../db/connection';

/**
 * Which database the test servers run on.
 *
 * - `TEST_ENGINE=postgres` (with `DATABASE_URL=postgres://…`): every `startTestServer` gets a
 *   fresh PostgreSQL database of its own (a clone of the run's migrated template, templateDb.ts),
 *   dropped at dispose. Suites that exist only to repeat
 *   a test on PostgreSQL run once (their default run already is on PostgreSQL).
 * - `TEST_ENGINE=sqlite`: every test server on a fresh SQLite file, and the PostgreSQL-only
 *   suites are left to the PostgreSQL pass that follows (`npm test` sets this on its first pass
 *   when a second pass on PostgreSQL follows).
 * - unset: SQLite test servers; the PostgreSQL-only suites run when DATABASE_URL is postgres://.
 */
export type Engine = 'sqlite' | 'postgres';

const PG_URL = process.env.DATABASE_URL ?? '';

export function testEngine(): Engine {
  const want = process.env.TEST_ENGINE;
  if (want === 'postgres') {
    if (!isPostgresUrl(PG_URL)) throw new Error('TEST_ENGINE=postgres needs DATABASE_URL=postgres://…');
    return 'postgres';
  }
  if (want && want !== 'sqlite') throw new Error(`TEST_ENGINE must be sqlite or postgres, not ${want}`);
  return 'sqlite';
}

/** The Postgres URL the Postgres-only suites use, or '' when they should not run in this pass. */
export function postgresSuitesUrl(): string {
  if (!isPostgresUrl(PG_URL) || process.env.TEST_ENGINE === 'sqlite') return '';
  return PG_URL;
}

/** Why the Postgres-only suites are skipped in this pass (for their skip messages). */
export function postgresSkipReason(): string {
  return isPostgresUrl(PG_URL)
    ? 'TEST_ENGINE=sqlite: the PostgreSQL pass of npm test runs it'
    : 'set DATABASE_URL=postgres://... to run it';
}

export const onPostgresPass = () => testEngine() === 'postgres';

/** Schemas this harness creates: lifeline_<kind>_<pid>_<ms since epoch>[_<n>]. */
const SCHEMA_RE = /^lifeline_[a-z]+_\d+_(\d{13})(_\d+)?(_rt)?$/;
const STALE_MS = 3 * 3600_000;
let counter = 0;
let cleaned: Promise<void> | undefined;

/** A connection to the database itself (no schema), for creating and dropping schemas. */
export function adminDb(url = PG_URL): Knex {
  return knex({ client: 'pg', connection: postgresSchema(url).connection, pool: { min: 0, max: 1 } });
}

/** `url` with `?schema=NAME` set (replacing any schema it named). */
export function withSchema(url: string, schema: string) {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}

/** A unique schema name for this process (not created yet: the server's pool creates it). */
export function uniqueSchema(kind: string) {
  return `lifeline_${kind}_${process.pid}_${Date.now()}_${++counter}`;
}

/** A DATABASE_URL naming a fresh, unique schema; drop it with dropSchema. Cleans up stale ones once per process. */
export async function freshPostgresUrl(kind = 't', url = PG_URL): Promise<string> {
  cleaned ??= dropStaleSchemas(url).catch(() => undefined);
  await cleaned;
  return withSchema(url, uniqueSchema(kind));
}

export async function dropSchema(urlWithSchema: string) {
  const { schema } = postgresSchema(urlWithSchema);
  if (!schema) return;
  const db = adminDb(urlWithSchema);
  try {
    await db.raw(`drop schema if exists "${schema}" cascade`);
  } finally {
    await db.destroy();
  }
}

/** Drops test schemas left behind (a killed run) more than a few hours ago. */
export async function dropStaleSchemas(url = PG_URL, olderThanMs = STALE_MS) {
  const db = adminDb(url);
  try {
    const names: string[] = await db('pg_namespace').where('nspname', 'like', 'lifeline\\_%').pluck('nspname');
    for (const name of names) {
      const m = SCHEMA_RE.exec(name);
      if (!m || Date.now() - Number(m[1]) < olderThanMs) continue;
      // Another test process may be dropping the same one: not an error.
      await db.raw(`drop schema if exists "${name}" cascade`).catch(() => undefined);
    }
  } finally {
    await db.destroy();
  }
}
