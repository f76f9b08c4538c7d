import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { STAFF_OVER_DEVICE } from '../services/positionWriter';
import { FLOOD_REFUSAL, TOO_MANY_SOCKETS } from '../realtime/socketLimits';
import { expectNoWrite } from '../testing/assertions';
import { dispatchCase, expectStatus, initiateTracking, rowCount, trackingTokens, updateCase } from '../testing/dispatchHelpers';
import { startTestServer, type TestServer, useTestServer } from '../testing/testServer';
import { sleep } from '../testing/wait';

/**
 * What an outsider with a link (or a stolen session) tried against the position feed: a
 * tracking link showing the previous patient's street, a fix dated ahead pinning the
 * marker, staff posts over the crew's own device, one socket flooding the server, and
 * Send Tracker minting a new pair of live links on every retry.
 */
const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;
beforeAll(async () => {
  operator = await s.signIn('operator');
});

const staffPosition = (ambulanceId: number, body: Record<string, unknown>, token = operator) =>
  s.api('POST', `/api/ambulances/${ambulanceId}/position`, { token, body });
const driverPosition = (ambulanceId: number, driver: string, body: Record<string, unknown>) =>
  s.api('POST', `/api/ambulances/${ambulanceId}/position?t=${driver}`, { body });

describe('a tracking link shows only the path driven for its own case', () => {
  it('the previous case\'s positions (its patient\'s street) are not in the next case\'s trail; staff still see them', async () => {
    const previous = await dispatchCase(s, operator, 3);
    const street = [{ latitude: 17.31, longitude: 78.31 }, { latitude: 17.32, longitude: 78.32 }];
    for (const [i, p] of street.entries()) {
      expectStatus(await staffPosition(3, { ...p, timestamp: Date.now() - 60_000 + i * 1000 }), 200, 'position of the previous case');
    }
    expectStatus(await updateCase(s, operator, previous, { status: 'closed' }), 200, 'close');
    await sleep(5); // the next dispatch is strictly later than the last fix of the previous case
    const next = await dispatchCase(s, operator, 3);
    const { viewer, driver } = await trackingTokens(s, operator, next, 3);
    expectStatus(await driverPosition(3, driver, { latitude: 17.35, longitude: 78.35 }), 200, 'position of the next case');

    const tracked = await s.api('GET', `/api/track/3?t=${viewer}`);
    expect(tracked.status).toBe(200);
    expect(tracked.body.trail.map((p: { latitude: number }) => p.latitude)).toEqual([17.35]);
    const staffTrail = await s.api('GET', '/api/ambulances/3/trail', { token: operator });
    expect(staffTrail.body.positions.map((p: { latitude: number }) => p.latitude)).toEqual([17.31, 17.32, 17.35]);
  });

  it('a reassignment starts a new trail for the case: the ambulance\'s path before it took the case is not shown', async () => {
    const c = await dispatchCase(s, operator, 4);
    expectStatus(await staffPosition(2, { latitude: 17.21, longitude: 78.21, timestamp: Date.now() - 30_000 }), 200, 'earlier position of 2');
    await sleep(5);
    expectStatus(await updateCase(s, operator, c, { ambulance_id: 2 }), 200, 'reassign to 2');
    const { viewer } = await trackingTokens(s, operator, c, 2);
    expect((await s.api('GET', `/api/track/2?t=${viewer}`)).body.trail).toEqual([]);
  });
});

describe('a fix dated ahead never pins the marker', () => {
  it('is stored as taken at its arrival, so the driver\'s next real fix moves the marker; repeated, every time', async () => {
    const c = await dispatchCase(s, operator, 5);
    const { driver, viewer } = await trackingTokens(s, operator, c, 5);
    for (let round = 0; round < 3; round++) {
      const forged = await driverPosition(5, driver, { latitude: 17.9, longitude: 78.9, timestamp: Date.now() + 29_000 });
      expect(forged.status).toBe(200);
      await sleep(2);
      const real = await driverPosition(5, driver, { latitude: 17.4 + round / 100, longitude: 78.4, timestamp: Date.now() });
      expect({ round, body: real.body }).toEqual({ round, body: { ok: true, latest: true } });
      expect((await s.api('GET', `/api/track/5?t=${viewer}`)).body).toMatchObject({ latitude: 17.4 + round / 100, longitude: 78.4 });
    }
    const rows = await s.ctx.db('ambulance_positions').where({ ambulance_id: 5, latitude: 17.9 });
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r.recorded_at <= r.received_at).toBe(true);
  });

  it('a fix dated more than 30 s ahead is still refused (400) and writes nothing', async () => {
    const res = await expectNoWrite(s.ctx.db, () => staffPosition(6, { latitude: 17.4, longitude: 78.4, timestamp: Date.now() + 120_000 }));
    expect(res).toMatchObject({ status: 400, body: { error: 'timestamp: is in the future' } });
  });
});

describe('staff positions do not override the crew\'s own device', () => {
  it('while the ambulance reported itself in the last minute, a staff post is refused (409) and writes nothing; other ambulances still take staff posts', async () => {
    const c = await dispatchCase(s, operator, 7);
    const { driver } = await trackingTokens(s, operator, c, 7);
    expectStatus(await driverPosition(7, driver, { latitude: 17.41, longitude: 78.41 }), 200, 'driver');
    const refused = await expectNoWrite(s.ctx.db, () => staffPosition(7, { latitude: 17.0, longitude: 78.0 }));
    expect(refused).toMatchObject({ status: 409, body: { error: STAFF_OVER_DEVICE } });
    expect((await staffPosition(8, { latitude: 17.0, longitude: 78.0 })).status).toBe(200);
  });

  it('staff posts are counted like a link, per ambulance: over LINK_LIMIT_PER_MIN a minute they get 429 and write nothing', async () => {
    const limited = await startTestServer({ env: { LINK_LIMIT_PER_MIN: '4', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' } });
    try {
      const op = await limited.signIn('operator');
      const post = (id: number, i: number) => limited.api('POST', `/api/ambulances/${id}/position`, { token: op, body: { latitude: 17.4 + i / 1000, longitude: 78.4 } });
      for (let i = 0; i < 4; i++) expect((await post(1, i)).status).toBe(200);
      const refused = await expectNoWrite(limited.ctx.db, () => post(1, 4));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await post(2, 0)).status).toBe(200); // another ambulance has its own count
    } finally {
      await limited.dispose();
    }
  });

  it('an old fix of the driver (an offline replay) does not count as reporting now', async () => {
    const c = await dispatchCase(s, operator, 6);
    const { driver } = await trackingTokens(s, operator, c, 6);
    expectStatus(await driverPosition(6, driver, { latitude: 17.41, longitude: 78.41, timestamp: Date.now() - 5 * 60_000 }), 200, 'old driver fix');
    expect((await staffPosition(6, { latitude: 17.0, longitude: 78.0 })).status).toBe(200);
  });
});

describe('Send Tracker with an Idempotency-Key', () => {
  it('a retry replays the first answer: one pair of links, two e-mails, one timeline entry', async () => {
    const c = await dispatchCase(s, operator, 1);
    const tokens = await rowCount(s, 'track_tokens');
    const mails = await rowCount(s, 'outbox');
    const entries = await rowCount(s, 'case_events', { case_id: c, action: 'tracking' }); // the dispatch's own
    const send = () => s.api('POST', '/api/tracking/initiate', { token: operator, headers: { 'Idempotency-Key': `tracker-${c}` }, body: { caseId: c, ambulanceId: 1 } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 200, body: first.body, replayed: 'true' });
    expect(await rowCount(s, 'track_tokens')).toBe(tokens + 2);
    expect(await rowCount(s, 'outbox')).toBe(mails + 2);
    expect(await rowCount(s, 'case_events', { case_id: c, action: 'tracking' })).toBe(entries + 1);
    // Without a key each press is a new send, as before.
    expect((await initiateTracking(s, operator, c, 1)).status).toBe(200);
    expect(await rowCount(s, 'track_tokens')).toBe(tokens + 4);
  });
});

/** A raw Socket.IO client over `ws`: frames are written as they are, so flooding costs the test almost nothing. */
async function rawDriverSocket(url: string, auth: Record<string, string>) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const frames: string[] = [];
  let closed = false;
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    if (text === '2') ws.send('3'); // engine.io ping → pong
    frames.push(text);
  });
  ws.on('close', () => { closed = true; });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  ws.send(`40${JSON.stringify(auth)}`);
  const deadline = Date.now() + 2000;
  while (!frames.some((f) => f.startsWith('40') || f.startsWith('44')) && Date.now() < deadline) await sleep(5);
  const connected = frames.some((f) => f.startsWith('40'));
  return { ws, frames, connected, isClosed: () => closed };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

describe('one driver socket cannot flood the server', () => {
  /** Another driver's positions as its viewer hears them: milliseconds from send to arrival. */
  async function otherDriverLatencies(driverSock: Awaited<ReturnType<TestServer['socket']>>, viewerSock: Awaited<ReturnType<TestServer['socket']>>, n: number, tag: number) {
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    const on = (batch: { positions: { latitude: number }[] }) => {
      for (const p of batch.positions) {
        const at = sentAt.get(p.latitude);
        if (at !== undefined) latencies.push(performance.now() - at);
      }
    };
    viewerSock.on('track.position', on);
    for (let i = 0; i < n; i++) {
      const latitude = Number((17 + tag / 10 + i / 10_000).toFixed(6));
      sentAt.set(latitude, performance.now());
      driverSock.emit('ambulance.position', { latitude, longitude: 78.5 });
      await sleep(150); // below the per-socket limit of 10 a second
    }
    await sleep(300);
    viewerSock.off('track.position', on);
    return latencies;
  }

  it('events over the limit get an error ack and no work; a socket that keeps sending is disconnected; another driver is not slowed', async () => {
    const flood = await startTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
    try {
      const op = await flood.signIn('operator');
      const attackerCase = await dispatchCase(flood, op, 1);
      const attacker = await trackingTokens(flood, op, attackerCase, 1);
      const otherCase = await dispatchCase(flood, op, 2);
      const other = await trackingTokens(flood, op, otherCase, 2);
      const otherDriver = await flood.socket({ driverToken: other.driver });
      const otherViewer = await flood.socket({ trackToken: other.viewer });

      const quiet = await otherDriverLatencies(otherDriver, otherViewer, 12, 1);

      const raw = await rawDriverSocket(flood.url, { driverToken: attacker.driver });
      expect(raw.connected).toBe(true);
      const stored = await rowCount(flood, 'ambulance_positions', { ambulance_id: 1 });
      const sent = { n: 0 };
      const pump = (async () => {
        // 20,000 position events with acks, as fast as the socket takes them.
        for (let batch = 0; batch < 40 && !raw.isClosed(); batch++) {
          for (let i = 0; i < 500; i++) {
            sent.n++;
            raw.ws.send(`42${sent.n}["ambulance.position",{"latitude":17.${batch},"longitude":78.${i}}]`);
          }
          await sleep(1);
        }
      })();
      const during = await otherDriverLatencies(otherDriver, otherViewer, 12, 2);
      await pump;

      const deadline = Date.now() + 3000;
      while (!raw.isClosed() && Date.now() < deadline) await sleep(10);
      expect(raw.isClosed()).toBe(true);
      const acks = raw.frames.filter((f) => f.startsWith('43'));
      const refusedAcks = acks.filter((f) => f.includes(FLOOD_REFUSAL));
      const storedNow = await rowCount(flood, 'ambulance_positions', { ambulance_id: 1 });
      // The bucket lets a burst of 20 through, then 10 a second; everything else is refused before any work.
      expect(storedNow - stored).toBeLessThanOrEqual(40);
      // No accepted ack without its stored position. (Not equal: the socket is cut while the last accepted
      // positions wait for their commit, so their acks may never leave; on PostgreSQL under load, none did.)
      expect(acks.length - refusedAcks.length).toBeLessThanOrEqual(storedNow - stored);
      expect(refusedAcks.length).toBeGreaterThan(0);

      const quietP50 = percentile(quiet, 50);
      const floodP50 = percentile(during, 50);
      figures.flood = { sent: sent.n, stored: storedNow - stored, refusedWithAck: refusedAcks.length, quietP50, floodP50, floodP95: percentile(during, 95) };
      expect(during.length).toBe(12);
      // At most twice the quiet value (plus a few milliseconds of scheduling noise on a shared machine).
      expect(floodP50).toBeLessThanOrEqual(2 * quietP50 + 15);

      // The disconnected link may not come straight back on this node.
      await expect(flood.socket({ driverToken: attacker.driver })).rejects.toThrow(TOO_MANY_SOCKETS);
    } finally {
      await flood.dispose();
    }
  });

  it('a link token holds at most LINK_SOCKETS_MAX sockets on a node (viewer and driver alike); a closed one frees its place', async () => {
    const cap = await startTestServer({ env: { LINK_SOCKETS_MAX: '3', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' } });
    try {
      const op = await cap.signIn('operator');
      const c = await dispatchCase(cap, op, 1);
      const { viewer, driver } = await trackingTokens(cap, op, c, 1);
      for (const auth of [{ trackToken: viewer }, { driverToken: driver }]) {
        const held = [await cap.socket(auth), await cap.socket(auth), await cap.socket(auth)];
        await expect(cap.socket(auth)).rejects.toThrow(TOO_MANY_SOCKETS);
        held[0].disconnect();
        await sleep(50);
        const again = await cap.socket(auth);
        expect(again.connected).toBe(true);
        for (const sock of [...held, again]) sock.disconnect();
        await sleep(50);
        // Six handshakes at once: exactly three get through.
        const racing = await Promise.allSettled(Array.from({ length: 6 }, () => cap.socket(auth)));
        expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
        for (const r of racing) if (r.status === 'fulfilled') r.value.disconnect();
        await sleep(50);
      }
    } finally {
      await cap.dispose();
    }
  });
});

const figures: Record<string, unknown> = {};
afterAll(() => { if (Object.keys(figures).length) console.log(`[linkAbuse] ${JSON.stringify(figures)}`); });
