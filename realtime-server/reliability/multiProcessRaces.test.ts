import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { DEMO } from '../testing/demoAccounts';
import { casePayload } from '../testing/dispatchHelpers';
import { ServerProcess, freePort } from '../testing/serverProcess';
import { startSmtpListener, type SmtpListener } from '../testing/smtpListener';
import { dropSchema, freshPostgresUrl, postgresSkipReason, postgresSuitesUrl } from '../testing/testEngine';
import { checkInvariants } from './invariants';

/**
 * Several server processes on one PostgreSQL schema at once: three real servers
 * (`tsx realtime-server/main.ts`, each its own port, all started together with SEED=demo, so
 * migrations and the seed run concurrently too) share the database and one SMTP listener.
 * Each round fires every ambulance's dispatch from all three processes at once (exactly one
 * 201 per ambulance), then closes the cases while the same ambulances are dispatched again and
 * other cases are reassigned to them from the other processes (at most one taker per freed
 * ambulance), then frees the fleet; the invariants (invariants.ts) are read after every batch.
 * At the end every queued e-mail was delivered exactly once by the three outbox workers.
 *
 * MP_ROUNDS (default 15) rounds. Runs when DATABASE_URL is postgres://.
 */
const PG = postgresSuitesUrl();
if (!PG) console.info(`[multiProcessRaces] skipped: ${postgresSkipReason()}`);
const NODES = 3;
const ROUNDS = Number(process.env.MP_ROUNDS ?? 15);
const PER_AMBULANCE = 6;

interface Answer { status: number; body: any; node: number }

describe.skipIf(!PG)(`${NODES} server processes on one PostgreSQL database`, () => {
  let url = '';
  let smtp: SmtpListener;
  let db: Knex;
  let dir = '';
  const servers: ServerProcess[] = [];
  let operator = '';
  let admin = '';
  const figures = { rounds: 0, requests: 0, statuses: {} as Record<string, number>, dispatchWinners: 0, invariantChecks: 0, takersAfterClose: 0 };

  async function call(node: number, method: string, urlPath: string, body?: unknown, token = operator): Promise<Answer> {
    figures.requests += 1;
    const res = await fetch(servers[node].base + urlPath, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    figures.statuses[res.status] = (figures.statuses[res.status] ?? 0) + 1;
    return { status: res.status, body: text ? JSON.parse(text) : undefined, node };
  }
  const dispatch = (node: number, ambulance: number) => call(node, 'POST', '/live-location', casePayload(ambulance, { patientName: 'Multi Process' }));
  const update = (node: number, caseId: string, body: Record<string, unknown>) => call(node, 'PUT', `/api/cases/${caseId}`, body);

  async function invariants(when: string) {
    figures.invariantChecks += 1;
    const report = await checkInvariants(db);
    expect(report.violations, when).toEqual([]);
  }
  const never5xx = (answers: Answer[], what: string) => {
    const bad = answers.filter((a) => a.status >= 500);
    expect(bad.map((a) => `${what} on node ${a.node}: ${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
  };

  beforeAll(async () => {
    url = await freshPostgresUrl('mp', PG);
    db = openDatabase(url);
    smtp = await startSmtpListener();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-mp-'));
    for (let i = 0; i < NODES; i++) {
      const port = await freePort();
      servers.push(new ServerProcess({
        DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', SEED: 'demo', DEMO_HISTORY_DAYS: '0', SMTP_URL: smtp.url, GEOCODER_URL: 'off',
        PUBLIC_URL: 'http://lifeline.test', STATIC_DIR: path.join(dir, 'web'), LOG_LEVEL: 'warn', LINK_LIMIT_PER_MIN: '1000000', DRAIN_SECONDS: '0',
        TEST_ENGINE: '',
      }, `http://127.0.0.1:${port}`));
    }
    // All at once: concurrent migrations and seeding of a fresh schema.
    for (const s of servers) s.start();
    await Promise.all(servers.map((s) => s.waitHealthy(120_000)));
    const signIn = async (who: object) => {
      const res = await fetch(`${servers[0].base}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
      return ((await res.json()) as { token: string }).token;
    };
    operator = await signIn(DEMO.operator);
    admin = await signIn(DEMO.admin);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.destroy();
    await smtp?.close();
    if (url) await dropSchema(url);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('migrated and seeded once although all three started together; a session from one node works on the others', async () => {
    expect(Number((await db('ambulances').count({ n: '*' }).first())?.n)).toBe(8);
    expect(Number((await db('users').count({ n: '*' }).first())?.n)).toBe(2);
    const names: string[] = await db('knex_migrations').pluck('name');
    expect(new Set(names).size).toBe(names.length);
    for (let i = 0; i < NODES; i++) expect((await call(i, 'GET', '/api/ambulances')).status).toBe(200);
    expect((await call(2, 'GET', '/api/outbox', undefined, admin)).status).toBe(200);
  });

  it(`${ROUNDS} rounds of concurrent dispatches of the same ambulances from all three, interleaved with close and reassign`, async () => {
    const started = Date.now();
    const fleet: number[] = (await db('ambulances').orderBy('id').pluck('id')).map(Number);
    for (let round = 0; round < ROUNDS; round++) {
      // 1. Every ambulance dispatched PER_AMBULANCE times at once, spread over the three nodes.
      const storm = await Promise.all(fleet.flatMap((amb, a) =>
        Array.from({ length: PER_AMBULANCE }, (_, k) => dispatch((a + k + round) % NODES, amb).then((r) => ({ ...r, amb })))));
      never5xx(storm, 'dispatch');
      const held = new Map<number, string>();
      for (const amb of fleet) {
        const mine = storm.filter((r) => r.amb === amb);
        const won = mine.filter((r) => r.status === 201);
        expect(won, `round ${round}: ambulance ${amb} was dispatched ${won.length} times`).toHaveLength(1);
        expect(mine.filter((r) => r.status === 409)).toHaveLength(PER_AMBULANCE - 1);
        held.set(amb, won[0].body.caseId);
        figures.dispatchWinners += 1;
      }
      await invariants(`round ${round} after the dispatch storm`);

      // 2. The even ambulances' cases close on one node while two others dispatch that ambulance
      //    again and an odd ambulance's case is reassigned to it from the third: at most one takes it.
      const evens = fleet.filter((_, i) => i % 2 === 0);
      const odds = fleet.filter((_, i) => i % 2 === 1);
      const batch = await Promise.all(evens.flatMap((amb, i) => {
        const n = (i + round) % NODES;
        const other = odds[i % odds.length];
        return [
          update(n, held.get(amb)!, { status: 'closed' }).then((r) => ({ ...r, amb, kind: 'close' })),
          dispatch((n + 1) % NODES, amb).then((r) => ({ ...r, amb, kind: 'dispatch' })),
          dispatch((n + 2) % NODES, amb).then((r) => ({ ...r, amb, kind: 'dispatch' })),
          update((n + 2) % NODES, held.get(other)!, { ambulance_id: amb }).then((r) => ({ ...r, amb, kind: 'reassign' })),
        ];
      }));
      never5xx(batch, 'close/dispatch/reassign');
      for (const r of batch) {
        if (r.kind === 'close') expect(r.status, JSON.stringify(r.body)).toBe(200);
        if (r.kind === 'dispatch') expect([201, 409]).toContain(r.status);
        if (r.kind === 'reassign') expect([200, 409]).toContain(r.status);
      }
      for (const amb of evens) {
        const takers = batch.filter((r) => r.amb === amb && ((r.kind === 'dispatch' && r.status === 201) || (r.kind === 'reassign' && r.status === 200)));
        expect(takers.length, `round ${round}: freed ambulance ${amb} taken ${takers.length} times`).toBeLessThanOrEqual(1);
        figures.takersAfterClose += takers.length;
      }
      await invariants(`round ${round} after close/dispatch/reassign`);

      // 3. Free the fleet for the next round: close every active case, from all nodes at once.
      const active: string[] = await db('cases').where({ status: 'active' }).pluck('id');
      const closes = await Promise.all(active.map((id, i) => update(i % NODES, id, { status: 'closed' })));
      never5xx(closes, 'close');
      expect(closes.every((r) => r.status === 200)).toBe(true);
      expect(await db('ambulances').whereNot({ status: 'available' }).pluck('id')).toEqual([]);
      await invariants(`round ${round} after freeing the fleet`);
      figures.rounds += 1;
    }
    console.info(`[multiProcessRaces] ${NODES} processes, ${figures.rounds} rounds, ${figures.requests} requests (${Object.entries(figures.statuses).map(([k, v]) => `${k}: ${v}`).join(', ')}), `
      + `${figures.dispatchWinners} storm winners (one per ambulance per round), ${figures.takersAfterClose} freed ambulances taken again, invariants checked ${figures.invariantChecks} times, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 240_000);

  it('the three outbox workers delivered every queued e-mail exactly once', async () => {
    const queued = Number((await db('outbox').count({ n: '*' }).first())?.n);
    expect(queued).toBeGreaterThan(0);
    const deadline = Date.now() + 90_000;
    while (Number((await db('outbox').where({ status: 'sent' }).count({ n: '*' }).first())?.n) < queued && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 500));
    expect(await db('outbox').whereNot({ status: 'sent' }).select('id', 'status', 'last_error')).toEqual([]);
    const perId = new Map<string, number>();
    for (const m of smtp.received) perId.set(m.headers['x-lifeline-outbox-id'], (perId.get(m.headers['x-lifeline-outbox-id']) ?? 0) + 1);
    const ids = (await db('outbox').pluck('id')).map(String).sort();
    expect([...perId.keys()].sort()).toEqual(ids);
    expect([...perId.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    console.info(`[multiProcessRaces] ${queued} e-mails queued, ${smtp.received.length} deliveries by ${NODES} processes, each message once`);
  }, 120_000);
});
