import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
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
      connection,
      searchPath: schema ? [schema] : undefined,
      pool: {
        min: 0,
        max: 10,
        // The schema must exist before the search path can use it.
        afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
          if (!schema) return done(null, conn);
          conn.query(`create schema if not exists "${schema}"`, (err: Error | null) => done(err, conn));
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

export function openDatabase(databaseUrl: string): Knex {
  return knex(knexConfig(databaseUrl));
}

export const isSqlite = (db: Knex) => db.client.config.client === 'better-sqlite3';
