import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { PUBLIC_URL, casePayload, tokenInLink } from '../testing/dispatchHelpers';
import { nextEvent } from '../testing/testServer';
import { dropSchema, freshPostgresUrl, postgresSkipReason, postgresSuitesUrl } from '../testing/testEngine';
import { checkInvariants } from '../reliability/invariants';
import { ServerProcess, freePort } from '../testing/serverProcess';
import { DEMO } from '../testing/demoAccounts';
import { sleep } from '../testing/wait';

/**
 * Issue 7, proven with several nodes: three server processes on their own ports sharing
 * PostgreSQL and Redis, and a TCP load balancer in front of them (as HAProxy in TCP mode
 * would be: a connection goes to a live node, round robin). Runs when DATABASE_URL is
 * postgres:// and REDIS_URL is set (`.ci/run` sets both).
 */
const PG = postgresSuitesUrl();
const REDIS_URL = process.env.REDIS_URL ?? '';
const why = !PG ? postgresSkipReason() : !REDIS_URL ? 'set REDIS_URL=redis://... to run it' : '';
if (why) console.info(`[threeNodes] skipped: ${why}`);

type Node = ServerProcess & { name: string; url: string };

async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const node = Object.assign(new ServerProcess({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', GEOCODER_URL: 'off', SMTP_URL: '', DRAIN_SECONDS: '0', ...env }, url), { name, url });
  node.start();
  await node.waitHealthy(60_000);
  return node;
}

/** A TCP balancer: each connection to the next live node, round robin; a node that refuses is skipped. */
async function startBalancer(backends: () => Node[]) {
  let next = 0;
  const placed: string[] = [];
  const server = net.createServer((client) => {
    const live = backends();
    const tryAt = (attempt: number) => {
      if (attempt >= live.length) return client.destroy();
      const node = live[(next + attempt) % live.length];
      const upstream = net.connect(node.port, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        next = (next + attempt + 1) % Math.max(1, live.length);
        placed.push(node.name);
        client.pipe(upstream).pipe(client);
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.on('error', () => upstream.destroy());
      });
      // A node that refuses: the next one; one that fails later: the client's connection ends (it reconnects).
      upstream.on('error', () => (connected ? client.destroy() : tryAt(attempt + 1)));
    };
    tryAt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, placed, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function api(base: string, method: string, p: string, o: { token?: string; body?: unknown } = {}) {
  const res = await fetch(base + p, {
    method,
    headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...(o.body ? { 'content-type': 'application/json' } : {}) },
    body: o.body ? JSON.stringify(o.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe.skipIf(!!why)('three server processes sharing PostgreSQL and Redis', () => {
  let dbUrl: string;
  const prefix = `lifeline-3n-${randomUUID()}`;
  const nodes: Record<'A' | 'B' | 'C', Node> = {} as any;
  let lb: Awaited<ReturnType<typeof startBalancer>>;
  const sockets: Socket[] = [];
  let operator: string;

  const socket = (url: string, auth: Record<string, string>, reconnection = false) => {
    const s = connect(url, { auth, transports: ['websocket'], forceNew: true, reconnection, reconnectionDelay: 100, reconnectionDelayMax: 500 });
    sockets.push(s);
    return new Promise<Socket>((resolve, reject) => {
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });
  };

  beforeAll(async () => {
    dbUrl = await freshPostgresUrl('nodes3', PG);
    const env = { DATABASE_URL: dbUrl, REDIS_URL, REDIS_PREFIX: prefix, LINK_LIMIT_PER_MIN: '100000', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', PUBLIC_URL };
    // All three at once: migrations and the demo seed are safe to race.
    [nodes.A, nodes.B, nodes.C] = await Promise.all((['A', 'B', 'C'] as const).map((n) => startNode(n, env)));
    lb = await startBalancer(() => Object.values(nodes).filter((n) => n.running));
    operator = (await api(nodes.A.url, 'POST', '/api/auth/signin', { body: DEMO.operator })).body.token;
  }, 90_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await lb?.close();
    await Promise.all(Object.values(nodes).map((n) => n.stop()));
    if (dbUrl) await dropSchema(dbUrl);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }, 30_000);

  it('a dispatch on node A reaches staff sockets on B and C within a second', async () => {
    const [onB, onC] = await Promise.all([socket(nodes.B.url, { token: operator }), socket(nodes.C.url, { token: operator })]);
    await sleep(200);
    const heard = [onB, onC].map((s) => nextEvent<{ id: string }>(s, 'case.created', 1000));
    const res = await api(nodes.A.url, 'POST', '/live-location', { token: operator, body: casePayload(1) });
    expect(res.status).toBe(201);
    for (const e of await Promise.all(heard)) expect(e.id).toBe(res.body.caseId);
  });

  it('a driver position sent to node C reaches a tracking viewer on node A', async () => {
    const caseId = (await api(nodes.A.url, 'POST', '/live-location', { token: operator, body: casePayload(2) })).body.caseId;
    expect((await api(nodes.B.url, 'POST', '/api/tracking/initiate', { token: operator, body: { caseId, ambulanceId: 2, patientEmail: 'p@example.com', driverEmail: 'driver2@lifeline.test' } })).status).toBe(200);
    const { viewer, driver } = await tokensFromOutbox(caseId, 2);
    const viewerOnA = await socket(nodes.A.url, { trackToken: viewer });
    const driverOnC = await socket(nodes.C.url, { driverToken: driver });
    await sleep(200);
    const at = Date.now();
    const heard = nextEvent<{ positions: { recorded_at: string }[] }>(viewerOnA, 'track.position', 1000);
    expect(await driverOnC.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.42, longitude: 78.47, timestamp: at })).toEqual({ ok: true, latest: true });
    expect((await heard).positions.map((p) => p.recorded_at)).toEqual([new Date(at).toISOString()]);
  });

  it('killing node B loses no acknowledged write; its clients reconnect through the balancer to another node and resync', async () => {
    // Three staff clients through the balancer: round robin puts one on each node.
    const before = lb.placed.length;
    const clients = [] as Socket[];
    for (let i = 0; i < 3; i++) clients.push(await socket(lb.url, { token: operator }, true));
    const onB = clients[lb.placed.slice(before).indexOf('B')];
    expect(onB).toBeDefined();
    const reconnected = new Promise<void>((resolve) => onB.io.once('reconnect', () => resolve()));

    // Writes through B while it is killed: every one it acknowledged must be in the database.
    const acked: string[] = [];
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop && i < 500; i++) {
        try {
          const r = await api(nodes.B.url, 'POST', '/live-location', { token: operator, body: casePayload(undefined, { patientName: `Kill test ${i}` }) });
          if (r.status === 201) acked.push(r.body.caseId);
        } catch {
          return; // B is gone
        }
      }
    })();
    await sleep(400);
    await nodes.B.kill9();
    stop = true;
    await writer;
    expect(acked.length).toBeGreaterThan(0);

    await Promise.race([reconnected, sleep(10_000).then(() => { throw new Error('the client on B did not reconnect within 10 s'); })]);
    expect(lb.placed.at(-1)).not.toBe('B');
    // Resync: what the client fetches after reconnecting is the database's truth.
    const cases = (await api(lb.url, 'GET', '/api/cases', { token: operator })).body;
    const listed = new Set((Array.isArray(cases) ? cases : cases.cases).map((c: { id: string }) => c.id));
    for (const id of acked) expect(listed.has(id)).toBe(true);

    // And it is live again: a dispatch on C reaches it (and the others).
    const heard = clients.map((c) => nextEvent<{ id: string }>(c, 'case.created', 2000));
    const res = await api(nodes.C.url, 'POST', '/live-location', { token: operator, body: casePayload(undefined) });
    expect(res.status).toBe(201);
    for (const e of await Promise.all(heard)) expect(e.id).toBe(res.body.caseId);

    const db = openDatabase(dbUrl);
    try {
      const stored = new Set(await db('cases').whereIn('id', acked).pluck('id'));
      expect(acked.filter((id) => !stored.has(id))).toEqual([]);
      expect((await checkInvariants(db)).violations).toEqual([]);
      console.info(`[threeNodes] node B acknowledged ${acked.length} dispatches before kill -9: all stored; its client reconnected via ${lb.placed.at(-1)}`);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  /** The link tokens, read from the mail the outbox holds (no SMTP here), as their recipients would. */
  async function tokensFromOutbox(caseId: string, ambulanceId: number) {
    const db = openDatabase(dbUrl);
    try {
      const mails: { kind: string; body_text: string }[] = await db('outbox').where({ case_id: caseId }).whereIn('kind', ['tracking-patient', 'tracking-driver']);
      const viewer = tokenInLink(mails.find((m) => m.kind === 'tracking-patient')?.body_text ?? '', 'track', ambulanceId);
      const driver = tokenInLink(mails.find((m) => m.kind === 'tracking-driver')?.body_text ?? '', 'driver', ambulanceId);
      if (!viewer || !driver) throw new Error('tracking e-mails without their links');
      return { viewer, driver };
    } finally {
      await db.destroy();
    }
  }
});
