import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableNames } from '../realtime-server/testing/assertions';
import { startTestServer } from '../realtime-server/testing/testServer';
import { DEMO } from '../realtime-server/testing/demoAccounts';
import { openDatabase } from './connection';
import { DEMO_AMBULANCES, DEMO_USERS, seedDemo } from './seeds/demo';

const MIGRATIONS = fs.readdirSync(path.join(import.meta.dirname, 'migrations')).filter((f) => /^\d{14}_\w+\.ts$/.test(f));
const KNEX_TABLES = ['knex_migrations', 'knex_migrations_lock'];
// cases_search*: the FTS5 index of the history search and its shadow tables (20261127000200_case_lists.ts).
const FTS_TABLES = ['cases_search', 'cases_search_config', 'cases_search_data', 'cases_search_docsize', 'cases_search_idx'];
const APP_TABLES = [...FTS_TABLES, 'ambulance_positions', 'ambulances', 'assignments', 'case_events', 'cases', 'geocode_cache', 'geocode_searches', 'health_probe', 'hospitals', 'idempotency_keys', 'job_runs', 'outbox', 'prealerts', 'sessions', 'signin_challenges', 'signin_codes', 'track_tokens', 'users'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-migrations-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let db: Knex;
let n = 0;
beforeEach(() => { db = openDatabase(path.join(dir, `db${++n}.sqlite`)); });
afterEach(() => db.destroy());

/** The schema as SQLite holds it: every table and index with its CREATE statement. */
const schema = async () => db('sqlite_master').whereNot('name', 'like', 'sqlite_%').orderBy(['type', 'name']).select('type', 'name', 'sql');
const pragma = async (name: string) => Object.values((await db.raw(`PRAGMA ${name}`))[0])[0];
const count = async (table: string) => Number((await db(table).count({ n: '*' }).first())!.n);

describe('migrations', () => {
  it('round-trip on a fresh file: latest creates every table, rollback all leaves only knex tables, latest again rebuilds the same schema', async () => {
    expect(await tableNames(db)).toEqual([]);
    const [, applied] = await db.migrate.latest();
    expect(applied).toEqual(MIGRATIONS);
    expect(await tableNames(db)).toEqual([...APP_TABLES, ...KNEX_TABLES].sort());
    const first = await schema();

    const [, rolledBack] = await db.migrate.rollback(undefined, true);
    expect(rolledBack).toHaveLength(applied.length);
    expect(await tableNames(db)).toEqual(KNEX_TABLES);
    expect(await db('knex_migrations').select('*')).toEqual([]);
    expect((await db('sqlite_master').where({ type: 'index' }).whereNot('name', 'like', 'sqlite_%').select('name'))).toEqual([]);

    await db.migrate.latest();
    expect(await schema()).toEqual(first);
    expect((await db.migrate.list())[1]).toEqual([]); // nothing pending
  });

  it('each migration steps down and up again on its own', async () => {
    await db.migrate.latest();
    const full = await schema();
    for (const _ of MIGRATIONS) await db.migrate.down();
    expect(await tableNames(db)).toEqual(KNEX_TABLES);
    for (const _ of MIGRATIONS) await db.migrate.up();
    expect(await schema()).toEqual(full);
  });

  it('is a no-op when already at the latest', async () => {
    await db.migrate.latest();
    const [, applied] = await db.migrate.latest();
    expect(applied).toEqual([]);
  });
});

describe('connection', () => {
  it('opens SQLite in WAL mode with synchronous FULL, foreign keys on and a busy timeout', async () => {
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(2); // FULL
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
  });

  it('enforces foreign keys: a session of a missing user is refused', async () => {
    await db.migrate.latest();
    await expect(db('sessions').insert({ user_id: 424242, token_hash: 'x'.repeat(64), created_at: 'now', expires_at: 'later' })).rejects.toThrow(/FOREIGN KEY/);
  });

  it('creates the folder of a database file that does not exist yet', async () => {
    const nested = openDatabase(path.join(dir, 'deeper', 'still', 'lifeline.sqlite'));
    try {
      await nested.raw('select 1');
      expect(fs.existsSync(path.join(dir, 'deeper', 'still', 'lifeline.sqlite'))).toBe(true);
    } finally {
      await nested.destroy();
    }
  });
});

describe('demo seed', () => {
  it('seeds an empty database with the demo staff and the eight available ambulances', async () => {
    await db.migrate.latest();
    expect(await seedDemo(db)).toBe(true);
    expect(await db('users').orderBy('id').select('name', 'name_key', 'email', 'phone', 'phone_digits', 'role', 'active')).toEqual([
      { name: 'Admin', name_key: 'admin', email: 'admin@lifeline.test', phone: '5550100', phone_digits: '5550100', role: 'admin', active: 1 },
      { name: 'Operator', name_key: 'operator', email: 'operator@lifeline.test', phone: '5550101', phone_digits: '5550101', role: 'operator', active: 1 },
    ]);
    const ambulances = await db('ambulances').orderBy('id');
    expect(ambulances).toHaveLength(8);
    for (const a of ambulances) {
      expect(a.status).toBe('available');
      expect(a.driver_email).toMatch(/^driver\d@lifeline\.test$/);
      // Around Hyderabad (17.385, 78.4867).
      expect(Math.abs(a.latitude - 17.385)).toBeLessThan(0.2);
      expect(Math.abs(a.longitude - 78.4867)).toBeLessThan(0.2);
    }
    expect(new Set(ambulances.map((a) => a.license_plate)).size).toBe(8);
  });

  it('is a no-op the second time', async () => {
    await db.migrate.latest();
    expect(await seedDemo(db)).toBe(true);
    const users = await db('users').select('*');
    const ambulances = await db('ambulances').select('*');
    expect(await seedDemo(db)).toBe(false);
    expect(await db('users').select('*')).toEqual(users);
    expect(await db('ambulances').select('*')).toEqual(ambulances);
  });

  it.each([
    ['users', async () => { await db('users').insert({ ...DEMO_USERS[1], email: 'only@lifeline.test', name_key: 'operator', active: true, version: 1, created_at: 'now', updated_at: 'now' }); }],
    ['ambulances', async () => { const { place_name: _p, ...a } = DEMO_AMBULANCES[0]; await db('ambulances').insert({ ...a, plate_key: 'ts09ea1001', status: 'busy', version: 1, created_at: 'now', updated_at: 'now' }); }],
  ])('leaves a database that already holds %s alone', async (_what, fill) => {
    await db.migrate.latest();
    await fill();
    const before = { users: await count('users'), ambulances: await count('ambulances') };
    expect(await seedDemo(db)).toBe(false);
    expect({ users: await count('users'), ambulances: await count('ambulances') }).toEqual(before);
  });

  it('SEED=none starts the server with no users and no ambulances, so nobody can sign in', async () => {
    const server = await startTestServer({ env: { SEED: 'none' } });
    try {
      expect(await server.ctx.db('users').count({ n: '*' })).toEqual([{ n: 0 }]);
      expect(await server.ctx.db('ambulances').count({ n: '*' })).toEqual([{ n: 0 }]);
      const res = await server.api('POST', '/api/auth/signin', { body: DEMO.admin });
      expect(res.status).toBe(401);
    } finally {
      await server.dispose();
    }
  });

  it('a server started on an empty database runs every migration, then seeds it', async () => {
    const server = await startTestServer({ fromEmpty: true });
    try {
      expect(await server.ctx.db('knex_migrations').orderBy('id').pluck('name')).toEqual(MIGRATIONS);
      expect(await server.ctx.db('users').count({ n: '*' })).toEqual([{ n: 2 }]);
      expect(await server.ctx.db('ambulances').count({ n: '*' })).toEqual([{ n: 8 }]);
    } finally {
      await server.dispose();
    }
  });

  it('the default SEED=demo server starts seeded', async () => {
    const server = await startTestServer();
    try {
      expect(await server.ctx.db('users').count({ n: '*' })).toEqual([{ n: 2 }]);
      expect(await server.ctx.db('ambulances').count({ n: '*' })).toEqual([{ n: 8 }]);
    } finally {
      await server.dispose();
    }
  });
});
