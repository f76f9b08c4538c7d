import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '../../db/connection';
import { adminDb } from './testEngine';

/**
 * Migrated databases to copy. Every test server used to run all the migrations on an empty
 * database (about a hundred starts a run, each a few hundred milliseconds of DDL, seconds on a
 * busy PostgreSQL). The vitest run's global set-up (globalSetup.ts) migrates one template
 * instead, and each test server starts on a copy of it: a file copy on SQLite, `CREATE DATABASE
 * … TEMPLATE …` on PostgreSQL. The server still calls `migrate.latest()` at start, which finds
 * nothing to do, and then seeds as in production: the seed is not in the template because it
 * stamps the time (ambulance positions, shift starts) that tests read against their own clock.
 *
 * Migrating from empty stays tested: db/migrations.test.ts and db/postgres.test.ts run the
 * migrations up, down and up again, a test server given `fromEmpty` migrates itself, and so
 * does every server started on a DATABASE_URL of its own (the multi-node and process tests).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The files whose change changes what a migrated database holds: its name carries their hash. */
function migrationsHash(): string {
  const hash = crypto.createHash('sha256');
  const migrations = path.join(ROOT, 'db/migrations');
  const files = [
    ...fs.readdirSync(migrations).sort().map((f) => path.join(migrations, f)),
    // What the migrations import, and the loader.
    ...['db/migrationSource.ts', 'db/repositories/plateKey.ts', 'db/repositories/types.ts'].map((f) => path.join(ROOT, f)),
  ];
  for (const f of files) hash.update(path.relative(ROOT, f)).update('\0').update(fs.readFileSync(f)).update('\0');
  return hash.digest('hex').slice(0, 12);
}

/** A migrated SQLite file in a folder of its own; the folder goes at teardown. */
export async function buildSqliteTemplate(): Promise<{ file: string; dispose(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-template-'));
  const file = path.join(dir, `migrated-${migrationsHash()}.sqlite`);
  const db = openDatabase(file);
  try {
    await db.migrate.latest();
    // One self-contained file, nothing left in a -wal beside it: a copy of the file is the whole database.
    await db.raw('pragma wal_checkpoint(TRUNCATE)');
    await db.raw('pragma journal_mode = DELETE');
  } finally {
    await db.destroy();
  }
  return { file, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Test databases on PostgreSQL: lifeline_(tpl|db)_<hash or pid>_<ms since epoch>[_<n>]. */
const DB_RE = /^lifeline_(tpl|db)_[0-9a-f]+_(\d{13})(_\d+)?$/;
const STALE_MS = 3 * 3600_000;

/** `url` naming database `name` instead, with no schema (the production path: the public schema). */
export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  u.searchParams.delete('schema');
  return u.toString();
}

/** A migrated PostgreSQL database to clone, on the server `url` names; dropped at teardown. */
export async function buildPostgresTemplate(url: string): Promise<{ name: string; dispose(): Promise<void> }> {
  await dropStaleDatabases(url);
  const name = `lifeline_tpl_${migrationsHash()}_${Date.now()}`;
  const admin = adminDb(url);
  try {
    await admin.raw(`create database "${name}"`);
  } finally {
    await admin.destroy();
  }
  const db = openDatabase(withDatabase(url, name));
  try {
    await db.migrate.latest();
  } finally {
    await db.destroy();
  }
  return { name, dispose: () => dropDatabase(url, name) };
}

let counter = 0;

/**
 * A new database cloned from the run's migrated template, or undefined where the run has none
 * (a test file run outside the vitest set-up): the caller then migrates a fresh schema.
 */
export async function clonePostgresTemplate(url: string): Promise<string | undefined> {
  const template = inject('postgresTemplate');
  if (!template) return undefined;
  const name = `lifeline_db_${process.pid.toString(16)}_${Date.now()}_${++counter}`;
  const admin = adminDb(url);
  try {
    // The template has no connection open (PostgreSQL refuses to copy one in use); test servers only open their own copies.
    await admin.raw(`create database "${name}" template "${template}"`);
  } finally {
    await admin.destroy();
  }
  return withDatabase(url, name);
}

/** A copy of the run's migrated SQLite file at `file`; false where the run has none. */
export function copySqliteTemplate(file: string): boolean {
  const template = inject('sqliteTemplate');
  if (!template) return false;
  fs.copyFileSync(template, file);
  return true;
}

export async function dropDatabase(url: string, name: string) {
  const admin = adminDb(url);
  try {
    // FORCE: a connection the server left (a test that failed half-way) does not keep its database.
    await admin.raw(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.destroy();
  }
}

/** Drops test databases left behind (a killed run) more than a few hours ago. */
async function dropStaleDatabases(url: string) {
  const admin = adminDb(url);
  try {
    const names: string[] = await admin('pg_database').where('datname', 'like', 'lifeline\\_%').pluck('datname');
    for (const name of names) {
      const m = DB_RE.exec(name);
      if (!m || Date.now() - Number(m[2]) < STALE_MS) continue;
      await admin.raw(`drop database if exists "${name}" with (force)`).catch(() => undefined);
    }
  } finally {
    await admin.destroy();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated SQLite file test servers copy ('' for none). */
    sqliteTemplate: string;
    /** The migrated PostgreSQL database test servers clone ('' for none). */
    postgresTemplate: string;
  }
}
