import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchCase, trackingTokens } from '../testing/dispatchHelpers';
import { collect, nextEvent, useTestServer } from '../testing/testServer';
import { STAFF_POSITION_TICK_MS } from './positionFanout';
import { sleep } from '../testing/wait';

/**
 * Two nodes in one process sharing one database and one Redis (REDIS_URL): what a client
 * of either node sees must be what one node would show. The three-process version with
 * Postgres and a node killed is scripts/… multiNode.test.ts; this one checks each cross-node
 * path on its own. Skipped without REDIS_URL.
 */
const REDIS_URL = process.env.REDIS_URL ?? '';

describe.skipIf(!REDIS_URL)('two nodes over Redis', () => {
  const prefix = `lifeline-test-${randomUUID()}`;
  const env = { REDIS_URL, REDIS_PREFIX: prefix, LINK_LIMIT_PER_MIN: '4', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' };

  afterAll(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  const a = useTestServer({ env });
  const b = useTestServer(() => ({ env: { ...env, DATABASE_URL: a.config.databaseUrl } }));

  it('are two nodes: different ids, one database', async () => {
    expect(a.nodeId).not.toBe(b.nodeId);
    expect(a.port).not.toBe(b.port);
  });

  it('a dispatch on node A reaches a staff socket on node B within a second', async () => {
    const staffOnB = await b.socket({ token: await b.signIn('operator') });
    await sleep(100);
    const created = nextEvent<{ id: string }>(staffOnB, 'case.created', 1000);
    const caseId = await dispatchCase(a, await a.signIn('operator'), 1);
    expect((await created).id).toBe(caseId);
  });

  it('a driver position sent to node B reaches a tracking viewer on node A, once', async () => {
    const operator = await a.signIn('operator');
    const { viewer, driver } = await trackingTokens(a, operator, await dispatchCase(a, operator, 2), 2);
    const viewerOnA = await a.socket({ trackToken: viewer });
    const seen = collect<{ positions: { recorded_at: string }[] }>(viewerOnA, 'track.position');
    const driverOnB = await b.socket({ driverToken: driver });
    await sleep(100);
    const at = Date.now();
    expect(await driverOnB.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.41, longitude: 78.49, timestamp: at })).toEqual({ ok: true, latest: true });
    await sleep(500);
    seen.stop();
    expect(seen.seen.map((x) => x.positions.map((p) => p.recorded_at))).toEqual([[new Date(at).toISOString()]]);
  });

  it('staff get one batch per tick in total, holding positions that came in through both nodes', async () => {
    const operator = await a.signIn('operator');
    const viaA = (await trackingTokens(a, operator, await dispatchCase(a, operator, 3), 3)).driver;
    const viaB = (await trackingTokens(a, operator, await dispatchCase(a, operator, 4), 4)).driver;
    const staff = await a.socket({ token: operator });
    const batches = collect<{ positions: { ambulanceId: number }[] }>(staff, 'ambulance.position');
    const [driverA, driverB] = [await a.socket({ driverToken: viaA }), await b.socket({ driverToken: viaB })];
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      await Promise.all([
        driverA.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.4 + i / 1000, longitude: 78.5 }),
        driverB.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.3 + i / 1000, longitude: 78.4 }),
      ]);
    }
    await sleep(STAFF_POSITION_TICK_MS * 2.2);
    batches.stop();
    const elapsed = Date.now() - started;
    const mine = batches.seen.filter((x) => x.positions.some((p) => p.ambulanceId === 3 || p.ambulanceId === 4));
    // One node's ticks only: never more batches than ticks, and both ambulances seen together at least once.
    expect(mine.length).toBeLessThanOrEqual(Math.ceil(elapsed / STAFF_POSITION_TICK_MS) + 1);
    expect(mine.some((x) => [3, 4].every((id) => x.positions.some((p) => p.ambulanceId === id)))).toBe(true);
    for (const x of mine) expect(new Set(x.positions.map((p) => p.ambulanceId)).size).toBe(x.positions.length);
  });

  it("a sign-out on node A disconnects that session's socket on node B within a second", async () => {
    const token = await a.signIn('operator');
    const onB = await b.socket({ token });
    const gone = nextEvent(onB, 'disconnect', 1000);
    expect((await a.api('POST', '/api/auth/signout', { token })).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  it('a session signed out on node A is refused by node B (REST) within a second', async () => {
    const token = await a.signIn('operator');
    expect((await b.api('GET', '/api/auth/profile', { token })).status).toBe(200); // B now remembers it
    expect((await a.api('POST', '/api/auth/signout', { token })).status).toBe(200);
    const started = Date.now();
    while ((await b.api('GET', '/api/auth/profile', { token })).status === 200) {
      expect(Date.now() - started).toBeLessThan(1000);
      await sleep(50);
    }
    expect((await b.api('GET', '/api/auth/profile', { token })).status).toBe(401);
  });

  it('a link rate limit holds across nodes (LINK_LIMIT_PER_MIN=4: two calls on each node, the fifth refused on either)', async () => {
    const operator = await a.signIn('operator');
    const { viewer } = await trackingTokens(a, operator, await dispatchCase(a, operator, 5), 5);
    for (const s of [a, b, a, b]) expect((await s.api('GET', `/api/track/5?t=${viewer}`)).status).toBe(200);
    const refused = await b.api('GET', `/api/track/5?t=${viewer}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await a.api('GET', `/api/track/5?t=${viewer}`)).status).toBe(429);
  });
});
