import knex from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchema } from './connection';
import { postgresSkipReason, postgresSuitesUrl } from '../realtime-server/testing/testEngine';
import { useTestServer } from '../realtime-server/testing/testServer';
import { shareLocation } from '../realtime-server/testing/dispatchHelpers';

const url = postgresSuitesUrl();
const pg = Boolean(url);
if (!pg) console.info(`[postgres.test] skipped: ${postgresSkipReason()}`);

/** The same server, migrations, repositories and services on PostgreSQL, in a fresh schema. */
describe.skipIf(!pg)('on PostgreSQL', () => {
  const schema = `lifeline_test_${process.pid}_${Date.now()}`;
  afterAll(async () => {
    const admin = knex({ client: 'pg', connection: postgresSchema(url).connection });
    await admin.raw(`drop schema if exists "${schema}" cascade`);
    await admin.destroy();
  });
  const s = useTestServer(() => ({ env: { DATABASE_URL: `${postgresSchema(url).connection}${url.includes('?') ? '&' : '?'}schema=${schema}` } }));
  const dispatch = (token: string, ambulance: number) =>
    s.api('POST', '/live-location', { token, body: { to: 'p@example.com', status: 'active', patientName: 'P', description: 'Stroke', license_plate: ambulance } });

  it('migrates into its own schema and seeds the demo data', async () => {
    const tables = await s.ctx.db('pg_tables').where({ schemaname: schema }).pluck('tablename');
    expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'ambulances', 'cases', 'case_events', 'outbox', 'ambulance_positions', 'geocode_cache', 'track_tokens']));
    expect((await s.api('GET', '/api/ambulances', { token: await s.signIn('operator') })).body.ambulances).toHaveLength(8);
  });

  it("the server's sessions cancel a statement after 2 minutes and end a transaction left idle for a minute", async () => {
    const shown = async (name: string) => (await s.ctx.db.raw<{ rows: Record<string, string>[] }>(`show ${name}`)).rows[0][name];
    expect(await shown('statement_timeout')).toBe('2min');
    expect(await shown('idle_in_transaction_session_timeout')).toBe('1min');
  });

  it('rolls every migration back and forward again', async () => {
    const db = knex({ client: 'pg', connection: postgresSchema(url).connection, searchPath: [`${schema}_rt`], migrations: s.ctx.db.client.config.migrations });
    try {
      await db.raw(`create schema if not exists "${schema}_rt"`);
      await db.migrate.latest();
      await db.migrate.rollback(undefined, true);
      expect(await db('pg_tables').where({ schemaname: `${schema}_rt` }).whereNotIn('tablename', ['knex_migrations', 'knex_migrations_lock']).pluck('tablename')).toEqual([]);
      await db.migrate.latest();
      expect((await db('pg_tables').where({ schemaname: `${schema}_rt` }).pluck('tablename')).length).toBeGreaterThanOrEqual(11);
    } finally {
      await db.raw(`drop schema if exists "${schema}_rt" cascade`);
      await db.destroy();
    }
  });

  it('lets exactly one of ten simultaneous dispatches take an ambulance', async () => {
    const token = await s.signIn('operator');
    const results = await Promise.all(Array.from({ length: 10 }, () => dispatch(token, 2)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await s.ctx.db('cases').where({ ambulance_id: 2 }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
    // The winner's patient mail and its crew's driver link.
    expect(await s.ctx.db('outbox').count({ n: '*' }).first()).toMatchObject({ n: 2 });
  });

  it('frees the ambulance when the case closes, stores the patient location and positions', async () => {
    const token = await s.signIn('operator');
    const created = await dispatch(token, 3);
    expect(created.status).toBe(201);
    const id = created.body.caseId;
    const shared = await shareLocation(s, id, { latitude: 17.123456789, longitude: 78.987654321 });
    expect(shared.body).toMatchObject({ latitude: 17.12345679, longitude: 78.98765432 });
    const list = await s.api('GET', '/api/cases', { token });
    expect(list.body.cases.find((c: any) => c.id === id)).toMatchObject({ latitude: 17.12345679, longitude: 78.98765432, license_plate: 'TS09 EA 1003' });
    expect((await s.api('POST', '/api/ambulances/3/position', { token, body: { latitude: 17.4, longitude: 78.5 } })).body).toEqual({ ok: true, latest: true });
    const closed = await s.api('PUT', `/api/cases/${id}`, { token, body: { status: 'closed' } });
    expect(closed.body.case).toMatchObject({ status: 'closed' });
    const ambulances = (await s.api('GET', '/api/ambulances', { token })).body.ambulances;
    expect(ambulances.find((a: any) => a.id === 3)).toMatchObject({ status: 'available', location: { latitude: 17.4, longitude: 78.5 } });
    // Listing the case after the share is a staff read of the patient's location: audited.
    expect(await s.ctx.db('case_events').where({ case_id: id }).orderBy('id').pluck('action')).toEqual(['created', 'tracking', 'location', 'location.viewed', 'updated']);
  });
});
