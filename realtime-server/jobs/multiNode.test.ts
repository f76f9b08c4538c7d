import nodemailer from 'nodemailer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { geocodeCacheRepository } from '../../db/repositories/geocodeCacheRepository';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { seedDemo } from '../../db/seeds/demo';
import { loadConfig } from '../config';
import { createServiceContext } from '../services/serviceContext';
import type { ServiceContext } from '../services/context';
import { createGeocoder } from '../services/geocodeService';
import { startSmtpListener, type SmtpListener } from '../testing/smtpListener';
import { dropSchema, freshPostgresUrl, postgresSkipReason, postgresSuitesUrl } from '../testing/testEngine';
import { runJobExclusive } from './jobLock';
import { startOutboxWorker } from './outboxWorker';
import { startRetentionJob } from './retention';
import { waitFor } from '../testing/wait';

/**
 * Background work with several nodes on one PostgreSQL database: each node is a
 * ServiceContext with its own connection pool on the same schema, as separate processes would be.
 * - the outbox: N workers, one SMTP listener, every message delivered exactly once; a dead
 *   node's lease runs out and another node sends its message; a live node's lease is respected;
 * - periodic jobs: one pass at a time, and once per interval in all;
 * - the geocode cache: concurrent writes of one key are upserts;
 * - migrations and the demo seed run by several nodes at once on a fresh schema.
 */
const PG = postgresSuitesUrl();
if (!PG) console.info(`[multiNode] skipped: ${postgresSkipReason()}`);

const NODES = 3;
const MAILS = 60;

describe.skipIf(!PG)('several nodes on one PostgreSQL schema', () => {
  let url: string;
  let nodes: ServiceContext[] = [];
  let smtp: SmtpListener;
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    url = await freshPostgresUrl('nodes', PG);
    smtp = await startSmtpListener();
    const config = loadConfig({ DATABASE_URL: url, PORT: '0', GEOCODER_URL: 'off', PUBLIC_URL: 'http://lifeline.test', SMTP_URL: smtp.url });
    nodes = Array.from({ length: NODES }, () => createServiceContext({ db: openDatabase(url), config, log }));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.db.destroy()));
    await smtp?.close();
    if (url) await dropSchema(url);
  });

  it('migrate and seed a fresh schema all at once: one set of tables, one demo fleet', async () => {
    await Promise.all(nodes.map((n) => n.db.migrate.latest()));
    const seeded = await Promise.all(nodes.map((n) => seedDemo(n.db)));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const db = nodes[0].db;
    expect(Number((await db('knex_migrations_lock').count({ n: '*' }).first())?.n)).toBe(1);
    const names = await db('knex_migrations').pluck('name');
    expect(new Set(names).size).toBe(names.length);
    expect(Number((await db('ambulances').count({ n: '*' }).first())?.n)).toBe(8);
    expect(Number((await db('users').count({ n: '*' }).first())?.n)).toBe(2);
  });

  it(`${NODES} outbox workers send each of ${MAILS} queued e-mails exactly once`, async () => {
    const db = nodes[0].db;
    await db('outbox').delete();
    for (let i = 0; i < MAILS; i++) {
      await outboxRepository.insert(db, { kind: 'share-location', to: `p${i}@example.com`, subject: `Mail ${i}`, text: `Hello ${i}`, links: [] });
    }
    smtp.received.length = 0;
    const sentBy = new Map<string, number>();
    const workers = nodes.map((n, i) => {
      const transport = nodemailer.createTransport({ url: smtp.url });
      return startOutboxWorker({ ...n, log: pino({ level: 'info' }, { write: (line: string) => {
        if (line.includes('"mail sent"')) sentBy.set(`node${i}`, (sentBy.get(`node${i}`) ?? 0) + 1);
      } }) }, transport, { workerId: `node${i}`, pollMs: 20 });
    });
    try {
      await waitFor(async () => (await outboxRepository.countByStatus(db, 'sent')) === MAILS, `all ${MAILS} mails sent`, 30_000, 50);
      await new Promise((r) => setTimeout(r, 300)); // nothing more arrives
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const perId = new Map<string, number>();
    for (const m of smtp.received) perId.set(m.headers['x-lifeline-outbox-id'], (perId.get(m.headers['x-lifeline-outbox-id']) ?? 0) + 1);
    const ids = (await db('outbox').pluck('id')).map(String);
    expect(smtp.received).toHaveLength(MAILS);
    expect([...perId.keys()].sort()).toEqual(ids.sort());
    expect([...perId.values()].every((n) => n === 1)).toBe(true);
    expect(await db('outbox').where({ status: 'sent', attempts: 1 }).count({ n: '*' }).first()).toMatchObject({ n: MAILS });
    // The work was shared: more than one node sent mail.
    expect(sentBy.size).toBeGreaterThan(1);
    console.info(`[multiNode] ${MAILS} mails, ${NODES} workers: ${smtp.received.length} deliveries, sent per worker ${JSON.stringify(Object.fromEntries(sentBy))}`);
  });

  it("sends a dead node's message once its lease ran out, and leaves a live node's lease alone", async () => {
    const db = nodes[0].db;
    await db('outbox').delete();
    smtp.received.length = 0;
    const past = new Date(Date.now() - 1000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    const dead = await outboxRepository.insert(db, { kind: 'share-location', to: 'dead@example.com', subject: 'Dead node', text: 'x', links: [] });
    const live = await outboxRepository.insert(db, { kind: 'share-location', to: 'live@example.com', subject: 'Live node', text: 'x', links: [] });
    await db('outbox').where({ id: dead }).update({ status: 'sending', attempts: 1, claimed_by: 'crashed-node', claimed_until: past });
    await db('outbox').where({ id: live }).update({ status: 'sending', attempts: 1, claimed_by: 'busy-node', claimed_until: future });
    // A node starting now (requeueInterrupted at start) and a running one.
    const workers = nodes.slice(0, 2).map((n, i) => startOutboxWorker(n, nodemailer.createTransport({ url: smtp.url }), { workerId: `w${i}`, pollMs: 20 }));
    try {
      await waitFor(async () => (await outboxRepository.findById(db, dead))?.status === 'sent', 'the dead node\'s mail to be sent', 10_000);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(smtp.received.map((m) => m.subject)).toEqual(['Dead node']);
    expect(await outboxRepository.findById(db, dead)).toMatchObject({ status: 'sent', attempts: 2, claimed_by: null });
    expect(await outboxRepository.findById(db, live)).toMatchObject({ status: 'sending', claimed_by: 'busy-node', claimed_until: future });
    // The busy node's late outcome still counts (it holds the claim); a stranger's does not.
    expect(await outboxRepository.markSent(db, live, 'someone-else')).toBe(0);
    expect(await outboxRepository.markSent(db, live, 'busy-node')).toBe(1);
  });

  it('claims taken at once by many callers never overlap (FOR UPDATE SKIP LOCKED)', async () => {
    const db = nodes[0].db;
    await db('outbox').delete();
    for (let i = 0; i < 40; i++) await outboxRepository.insert(db, { kind: 'k', to: `c${i}@example.com`, subject: 's', text: 't', links: [] });
    const claimed = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      outboxRepository.claimNext(nodes[i % NODES].db, { workerId: `c${i}`, leaseMs: 60_000 })));
    const ids = claimed.filter(Boolean).map((m) => Number(m!.id));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(await outboxRepository.claimNext(db, { workerId: 'late', leaseMs: 60_000 })).toBeUndefined();
  });

  it('a periodic job runs one pass at a time, and once per interval across the nodes', async () => {
    let active = 0;
    let maxActive = 0;
    let passes = 0;
    const pass = async () => {
      active += 1; maxActive = Math.max(maxActive, active); passes += 1;
      await new Promise((r) => setTimeout(r, 100));
      active -= 1;
    };
    await nodes[0].db('job_runs').where({ name: 'test-job' }).delete();
    const first = await Promise.all(nodes.map((n) => runJobExclusive(n, 'test-job', 60_000, pass)));
    expect(first.filter((o) => o.ran)).toHaveLength(1);
    expect(first.filter((o) => !o.ran).map((o) => (o as { reason: string }).reason)).toEqual(['locked', 'locked']);
    // Right after: no node runs it again (one finds it recent under the lock, the others find it locked or recent).
    const again = await Promise.all(nodes.map((n) => runJobExclusive(n, 'test-job', 60_000, pass)));
    expect(again.map((o) => (o.ran ? 'ran' : o.reason))).toContain('recent');
    expect(again.filter((o) => o.ran)).toEqual([]);
    expect((await runJobExclusive(nodes[1], 'test-job', 60_000, pass)).ran).toBe(false);
    expect({ passes, maxActive }).toEqual({ passes: 1, maxActive: 1 });
    expect(await nodes[0].db('job_runs').where({ name: 'test-job' }).first()).toMatchObject({ runs: 1 });
    // A failed pass is not recorded: the next attempt runs.
    await expect(runJobExclusive(nodes[1], 'fail-job', 60_000, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await runJobExclusive(nodes[2], 'fail-job', 60_000, async () => 42)).toEqual({ ran: true, result: 42 });
  });

  it('the retention job of three nodes starting together runs one pass', async () => {
    await nodes[0].db('job_runs').where({ name: 'retention' }).delete();
    const jobs = nodes.map((n) => startRetentionJob(n));
    await Promise.all(jobs.map((j) => j.ready));
    await Promise.all(jobs.map((j) => j.stop()));
    expect(await nodes[0].db('job_runs').where({ name: 'retention' }).first()).toMatchObject({ runs: 1 });
  });

  it('concurrent geocode cache writes of one key are upserts: one row, no error', async () => {
    const key = '17.40000,78.40000';
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => geocodeCacheRepository.put(nodes[i % NODES].db, key, `Street ${i}`)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await nodes[0].db('geocode_cache').where({ key }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
    // Three nodes' geocoders answering the same new place at once: every answer is the name.
    let calls = 0;
    const fetchImpl = (async () => { calls += 1; await new Promise((r) => setTimeout(r, 20)); return new Response(JSON.stringify({ display_name: 'Charminar, Hyderabad' }), { headers: { 'content-type': 'application/json' } }); }) as typeof fetch;
    const geocoders = nodes.map((n) => createGeocoder({ ...n, config: { ...n.config, geocoderUrl: 'http://geocoder.test' } }, fetchImpl));
    const answers = await Promise.all(geocoders.map((g) => g.reverse(17.3616, 78.4747)));
    expect(answers.map((a) => a.displayName)).toEqual(Array(NODES).fill('Charminar, Hyderabad'));
    expect(calls).toBeLessThanOrEqual(NODES);
    expect(await nodes[0].db('geocode_cache').where({ key: '17.36160,78.47470' }).pluck('display_name')).toEqual(['Charminar, Hyderabad']);
  });
});
