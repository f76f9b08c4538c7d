import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyError, copySqliteToPostgres, tablesInForeignKeyOrder } from './copySqliteToPostgres';
import { casePayload, dispatchCase, initiateTracking, updateCase, shareLocation } from '../realtime-server/testing/dispatchHelpers';
import { dropSchema, freshPostgresUrl, postgresSkipReason, postgresSuitesUrl } from '../realtime-server/testing/testEngine';
import { startTestServer } from '../realtime-server/testing/testServer';
import { openDatabase } from './connection';

/**
 * `npm run db:copy`: a SQLite database seeded and used through the real API (cases, positions,
 * timelines, outbox, sessions, tracking links, idempotency keys) is copied into a fresh
 * PostgreSQL schema; every table is compared row by row, and a server on the copy keeps going.
 */
const PG = postgresSuitesUrl();
if (!PG) console.info(`[db:copy test] skipped: ${postgresSkipReason()}`);

describe.skipIf(!PG)('copying a SQLite database into PostgreSQL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-copy-'));
  const file = path.join(dir, 'centre.sqlite');
  let url = '';
  const log: string[] = [];

  beforeAll(async () => {
    url = await freshPostgresUrl('copy', PG);
    const s = await startTestServer({ env: { DATABASE_URL: file } });
    try {
      const [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
      const a = await dispatchCase(s, operator, 1, { patientName: 'Ravi Kumar', to: 'ravi@example.com' });
      const b = await dispatchCase(s, operator, 2, { patientName: 'Ünïcode Ω 😀', description: "O'Brien; DROP TABLE" });
      await shareLocation(s, a, { latitude: 17.123456789, longitude: 78.987654321, accuracy: 7.5 });
      for (let i = 0; i < 30; i++) await s.api('POST', '/api/ambulances/1/position', { token: operator, body: { latitude: 17.4 + i / 1000, longitude: 78.5, accuracy: 5, heading: 90, speed: 11.5 } });
      await initiateTracking(s, operator, a, 1);
      await updateCase(s, operator, b, { status: 'closed' });
      await s.api('POST', '/live-location', { token: operator, body: casePayload(3), headers: { 'Idempotency-Key': 'copy-key-1' } });
      const user = await s.api('POST', '/api/users', { token: admin, body: { name: 'Night Shift', email: 'night@lifeline.test', phone: '+91 555 0199', role: 'operator', address: '12 Tank Bund Road', shift: 2, gender: 1, location: 'Desk 2' } });
      expect(user.status).toBe(201);
      await s.api('PUT', '/api/ambulances/4', { token: operator, body: { status: 'maintenance' } });
      await s.ctx.db('geocode_cache').insert({ key: '17.40000,78.50000', display_name: 'Banjara Hills', created_at: new Date().toISOString() });
      await s.ctx.db('geocode_searches').insert({ query: 'banjara hills', results: JSON.stringify([{ displayName: 'Banjara Hills', latitude: 17.41, longitude: 78.44, source: 'address' }]), created_at: new Date().toISOString() });
      await s.ctx.db('users').where({ email: 'night@lifeline.test' }).update({ active: false });
    } finally {
      await s.dispose();
    }
  }, 60_000);
  afterAll(async () => {
    if (url) await dropSchema(url);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table, row by row, and says so', async () => {
    const result = await copySqliteToPostgres({ from: file, to: url, batch: 7, log: (l) => log.push(l) });
    expect(result.emptied).toBe(false);
    const source = openDatabase(file);
    const target = openDatabase(url);
    try {
      const tables = await tablesInForeignKeyOrder(target);
      expect(result.tables.map((t) => t.table)).toEqual(tables);
      expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'ambulances', 'cases', 'case_events', 'outbox', 'ambulance_positions', 'track_tokens', 'idempotency_keys', 'geocode_cache', 'geocode_searches', 'job_runs']));
      // Parents first.
      expect(tables.indexOf('users')).toBeLessThan(tables.indexOf('sessions'));
      expect(tables.indexOf('ambulances')).toBeLessThan(tables.indexOf('cases'));
      expect(tables.indexOf('cases')).toBeLessThan(tables.indexOf('track_tokens'));
      let compared = 0;
      for (const table of tables) {
        const [a, b] = await Promise.all([rows(source, table), rows(target, table)]);
        expect(b.length, table).toBe(a.length);
        expect(b.map((r) => normalise(r)), table).toEqual(a.map((r) => normalise(r)));
        compared += a.length;
      }
      expect(compared).toBe(result.rows);
      for (const t of ['cases', 'case_events', 'outbox', 'ambulance_positions', 'sessions', 'track_tokens', 'idempotency_keys']) {
        expect(result.tables.find((r) => r.table === t)!.rows, t).toBeGreaterThan(0);
      }
      expect(await target('users').where({ email: 'night@lifeline.test' }).first()).toMatchObject({ active: false });
    } finally {
      await source.destroy();
      await target.destroy();
    }
    expect(log.at(-1)).toMatch(/done: \d+ tables, \d+ rows/);
  });

  it('leaves a database a server runs on: sessions work, new ids follow the copied ones', async () => {
    const s = await startTestServer({ env: { DATABASE_URL: url } });
    try {
      const operator = await s.signIn('operator');
      const before = Number((await s.ctx.db('case_events').max({ m: 'id' }).first())?.m);
      const cases = (await s.api('GET', '/api/cases?scope=all&limit=100', { token: operator })).body.cases;
      expect(cases.map((c: any) => c.patient_name).sort()).toEqual(expect.arrayContaining(['Ravi Kumar', 'Ünïcode Ω 😀']));
      expect(cases.find((c: any) => c.patient_name === 'Ravi Kumar')).toMatchObject({ latitude: 17.12345679, longitude: 78.98765432 });
      const created = await s.api('POST', '/live-location', { token: operator, body: casePayload(5) });
      expect(created.status).toBe(201);
      const created2 = await s.api('POST', '/api/ambulances', { token: await s.signIn('admin'), body: { license_plate: 'COPY 0001', status: 'available' } });
      expect(created2.status).toBe(201);
      expect(created2.body.ambulance.id).toBe(9);
      expect(Number((await s.ctx.db('case_events').max({ m: 'id' }).first())?.m)).toBeGreaterThan(before);
      // The replayed key from the file still replays on PostgreSQL.
      const replay = await s.api('POST', '/live-location', { token: operator, body: casePayload(3), headers: { 'Idempotency-Key': 'copy-key-1' } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await s.dispose();
    }
  });

  it('refuses a target that holds data, and --force replaces it with the file (never merges)', async () => {
    await expect(copySqliteToPostgres({ from: file, to: url, log: () => undefined })).rejects.toThrow(CopyError);
    await expect(copySqliteToPostgres({ from: file, to: url, log: () => undefined })).rejects.toThrow(/already holds data.*--force/);
    const result = await copySqliteToPostgres({ from: file, to: url, force: true, log: () => undefined });
    expect(result.emptied).toBe(true);
    const target = openDatabase(url);
    try {
      expect(await target('ambulances').where({ license_plate: 'COPY 0001' }).first()).toBeUndefined();
      expect(Number((await target('cases').count({ n: '*' }).first())?.n)).toBe(result.tables.find((t) => t.table === 'cases')!.rows);
    } finally {
      await target.destroy();
    }
  });

  it('refuses a missing file or a non-Postgres target, and prints --help', async () => {
    await expect(copySqliteToPostgres({ from: path.join(dir, 'nope.sqlite'), to: url, log: () => undefined })).rejects.toThrow(/existing SQLite file/);
    await expect(copySqliteToPostgres({ from: file, to: path.join(dir, 'x.sqlite'), log: () => undefined })).rejects.toThrow(/postgres:\/\//);
    const help = spawnSync(path.join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['scripts/copySqliteToPostgres.ts', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run db:copy -- --from FILE.sqlite --to postgres://');
  });
});

/** The tables keyed by something other than `id`. */
const KEY_OF: Record<string, string> = { geocode_cache: 'key', geocode_searches: 'query', job_runs: 'name' };
const rows = (db: Knex, table: string) => db(table).select('*').orderBy(KEY_OF[table] ?? 'id');

/** The boolean columns (users.active, cases.demo). */
const BOOLEAN_COLUMNS = new Set(['active', 'demo']);

/** SQLite's booleans are 0/1; everything else must be equal as it is. */
function normalise(row: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = BOOLEAN_COLUMNS.has(k) && v != null ? Boolean(v) : v;
  return out;
}
