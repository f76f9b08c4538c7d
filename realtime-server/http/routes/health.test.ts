import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import { dispatch, updateCase, writeCounts } from '../../testing/dispatchHelpers';
import { onPostgresPass } from '../../testing/testEngine';
import { type TestServer, startTestServer, useTestServer } from '../../testing/testServer';
import { waitFor } from '../../testing/wait';
import { requestStatements } from '../../testing/statements';
import { manualClock } from '../../testing/manualClock';
import { PROBE_EVERY_MS } from '../../services/storageHealth';

/**
 * What a load balancer's health check sees: 200 while the node takes work, 503 once it
 * drains, and 503 while the database refuses writes (disk full, I/O errors, read-only), back
 * to 200 by itself once a write works again.
 */

describe('draining', () => {
  const s = useTestServer();

  it('answers 200 while serving and 503 once the node begins to shut down', async () => {
    expect(await s.api('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const closing = s.close({ drainMs: 500 });
    expectError(await s.api('GET', '/api/health'), 503, 'This node is shutting down');
    // Still serving while it drains: a request in flight or a late one is answered.
    expect((await s.api('GET', '/api/config')).status).toBe(200);
    await closing;
  });
});

describe('a database that does not answer', () => {
  it('answers 503 naming it (not a logged 500), with no stack', async () => {
    const s = await startTestServer();
    try {
      // The pool closed under the running server: no statement can run any more.
      await s.ctx.db.destroy();
      expectError(await s.api('GET', '/api/health'), 503, /^Database is not answering(: [\w-]+)?$/);
    } finally {
      await s.dispose().catch(() => undefined);
    }
  });
});

/**
 * Fills the database through the API until a dispatch fails: each round dispatches a free
 * ambulance with a long description and closes the case again. Answers the failed dispatch.
 */
async function dispatchUntilRefused(s: TestServer, operator: string) {
  const busy = new Set<number>();
  for (let round = 0; round < 400; round++) {
    const ambulance = [1, 2, 3, 4, 5, 6, 7, 8].find((id) => !busy.has(id));
    if (ambulance === undefined) throw new Error('every ambulance stayed busy before a dispatch failed');
    const res = await dispatch(s, operator, ambulance, { description: `Round ${round}: ${'breathing difficulty '.repeat(90)}` });
    if (res.status === 500) return res;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // A close that fails leaves the ambulance busy: the next round takes another.
    if ((await updateCase(s, operator, res.body.caseId, { status: 'closed' })).status !== 200) busy.add(ambulance);
  }
  throw new Error('the database never filled up');
}

describe('storage failures on SQLite (a full database, for real)', () => {
  // The health probe's spacing runs on this clock: the test moves it instead of waiting.
  const clock = manualClock();
  const s = useTestServer({ engine: 'sqlite', clock });
  let operator: string;
  const pragma = async (sql: string) => Object.values((await s.ctx.db.raw(`PRAGMA ${sql}`))[0])[0] as number;
  /**
   * Caps the file at exactly the pages it has, with none of them free: a migration that drops
   * an index leaves its pages on SQLite's free list, where a write could still go without the
   * file growing. Answers the cap.
   */
  const capAtCurrentSize = async () => {
    await s.ctx.db.raw('VACUUM');
    expect(await pragma('freelist_count')).toBe(0);
    const pages = await pragma('page_count');
    expect(await pragma(`max_page_count = ${pages}`)).toBe(pages);
    return pages;
  };

  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  it('stays cheap while all is well: a health check runs one read and writes nothing', async () => {
    const statements = (await requestStatements(s.ctx.db, async () => {
      for (let i = 0; i < 20; i++) expect((await s.api('GET', '/api/health')).body).toEqual({ status: 'ok' });
    })).map((q) => q.sql);
    expect(new Set(statements)).toEqual(new Set(['select 1']));
    expect(await s.ctx.db('health_probe').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('a dispatch that fails on a full disk turns health to 503 with the cause; health comes back by its own write probe once there is room', async () => {
    // Exactly the pages the file has now: every write that needs one more page fails with SQLITE_FULL.
    const pages = await capAtCurrentSize();

    const before = await writeCounts(s);
    const refused = await dispatchUntilRefused(s, operator);
    expectError(refused, 500, 'Internal server error');
    const afterRefusal = await writeCounts(s);

    const sick = await s.api('GET', '/api/health');
    expectError(sick, 503, 'Database writes are failing: SQLITE_FULL');
    // Checked again: still full, still 503 (each check probes at most every couple of seconds).
    const started = clock.now();
    while (clock.now() - started < 2500) {
      expectError(await s.api('GET', '/api/health'), 503, 'Database writes are failing: SQLITE_FULL');
      await clock.advance(250);
    }
    expect(await s.ctx.db('health_probe').count({ n: '*' }).first()).toEqual({ n: 0 });
    // The refusal itself wrote nothing (the rounds before it did).
    expect(afterRefusal.cases).toBeGreaterThanOrEqual(before.cases);
    expect(await writeCounts(s)).toEqual(afterRefusal);

    // Room again: no other request writes, yet health turns 200 through its own probe.
    await pragma(`max_page_count = ${pages + 100_000}`);
    await clock.advance(PROBE_EVERY_MS);
    const healthy = await waitFor(async () => {
      const res = await s.api('GET', '/api/health');
      return res.status === 200 ? res : undefined;
    }, 'health back to 200', 5000, 200);
    expect(healthy.body).toEqual({ status: 'ok' });
    expect(Number((await s.ctx.db('health_probe').count({ n: '*' }).first())!.n)).toBe(1);
    expect((await dispatch(s, operator, 8)).status).toBe(201);
  });

  it('a storage failure outside any request (a background job\'s write) counts too', async () => {
    expect((await s.api('GET', '/api/health')).status).toBe(200);
    const pages = await capAtCurrentSize();
    try {
      // A job's write through the server's own knex: one more page than the file may have.
      await expect(s.ctx.db('geocode_cache').insert({ key: 'job-write', display_name: 'x'.repeat(64 * 1024), created_at: new Date().toISOString() }))
        .rejects.toMatchObject({ code: 'SQLITE_FULL' });
      expectError(await s.api('GET', '/api/health'), 503, 'Database writes are failing: SQLITE_FULL');
    } finally {
      await pragma(`max_page_count = ${pages + 100_000}`);
    }
    await clock.advance(PROBE_EVERY_MS);
    await waitFor(async () => (await s.api('GET', '/api/health')).status === 200, 'health back to 200', 5000, 200);
  });
});

describe.skipIf(!onPostgresPass())('storage failures on PostgreSQL', () => {
  const clock = manualClock();
  const s = useTestServer({ clock });
  let operator: string;

  beforeAll(async () => {
    operator = await s.signIn('operator');
    // PostgreSQL's own errors (disk full, I/O error, read-only), raised by triggers in this test's schema only.
    await s.ctx.db.raw(`create function lifeline_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'storage refused the write (test)' using errcode = tg_argv[0]; end $$`);
  });

  const refuse = (table: string, code: string) => s.ctx.db.raw(`create trigger refuse before insert or update on ${table} for each row execute function lifeline_test_refuse('${code}')`);
  const allow = (table: string) => s.ctx.db.raw(`drop trigger refuse on ${table}`);

  it.each([
    ['disk full', '53100'],
    ['an I/O error', '58030'],
    ['a read-only database', '25006'],
  ])('a write refused with %s (%s) turns health to 503 until the probe writes again', async (_what, code) => {
    await refuse('cases', code);
    await refuse('health_probe', code);
    const before = await writeCounts(s);
    expectError(await dispatch(s, operator, 1), 500, 'Internal server error');
    expect(await writeCounts(s)).toEqual(before);
    expectError(await s.api('GET', '/api/health'), 503, `Database writes are failing: ${code}`);
    await clock.advance(2100);
    expectError(await s.api('GET', '/api/health'), 503, `Database writes are failing: ${code}`);

    await allow('cases');
    await allow('health_probe');
    await clock.advance(PROBE_EVERY_MS);
    await waitFor(async () => (await s.api('GET', '/api/health')).status === 200, 'health back to 200', 5000, 200);
    const res = await dispatch(s, operator, 1);
    expect(res.status).toBe(201);
    expect((await updateCase(s, operator, res.body.caseId, { status: 'closed' })).status).toBe(200);
  });
});
