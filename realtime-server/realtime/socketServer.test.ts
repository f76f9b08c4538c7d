import Database from 'better-sqlite3';
import type { Socket } from 'socket.io-client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/connection';
import { inTransaction } from '../services/context';
import { collect, nextEvent, roundTrip, useTestServer } from '../testing/testServer';
import { shareLocation } from '../testing/dispatchHelpers';
import { sleep } from '../testing/wait';

/**
 * Live events over a real Socket.IO client against a real server: handshake auth, rooms,
 * events within a second of the commit (and never before it), coalesced positions, revocation.
 */

// A burst of 100 positions on one driver socket is tested below: above the default per-socket limit (socketLimits.test.ts).
const s = useTestServer({ env: { SOCKET_EVENTS_PER_SEC: '1000' } });
let admin: string;
let operator: string;
/** Sockets opened by the running test; closed after it so events do not leak between tests. */
let open: Socket<any, any>[] = [];

beforeAll(async () => {
  admin = await s.signIn('admin');
  operator = await s.signIn('operator');
});
afterEach(() => {
  for (const sock of open) sock.disconnect();
  open = [];
});

async function connect(auth: Record<string, unknown>) {
  const sock = await s.socket(auth);
  open.push(sock);
  return sock;
}

/** The handshake error, or a failure when the handshake was accepted. */
async function refused(auth: Record<string, unknown>): Promise<Error> {
  try {
    const sock = await connect(auth);
    sock.disconnect();
  } catch (err) {
    return err as Error;
  }
  throw new Error(`handshake with ${JSON.stringify(Object.keys(auth))} was accepted`);
}

/** Every event a socket receives, in order, by name. */
function record(sock: Socket<any, any>) {
  const seen: { event: string; payload: any }[] = [];
  sock.onAny((event: string, payload: any) => seen.push({ event, payload }));
  return seen;
}

/** Staff position batches with the time each arrived. */
function staffBatchesOf(sock: Socket<any, any>) {
  const seen: { at: number; positions: any[] }[] = [];
  const on = (b: { positions: any[] }) => seen.push({ at: Date.now(), positions: b.positions });
  sock.on('ambulance.position', on);
  return { seen, stop: () => sock.off('ambulance.position', on) };
}

/**
 * The staff room gets at most one batch a second: a burst of `burstMs` reaches it as at most
 * 3 batches (more only if the burst itself lasted over 2 s), and n batches need at least n − 1
 * seconds after the burst began (`startedAt`). Arrival times, not gaps between them: a batch
 * delivered late on a loaded machine arrives close to the next one though they left a second apart,
 * but none can arrive before it was sent, so the span from the burst's start still holds.
 */
function expectCoalesced(batches: { at: number }[], burstMs: number, startedAt: number) {
  expect(batches.length).toBeGreaterThanOrEqual(1);
  expect(batches.length).toBeLessThanOrEqual(Math.max(3, Math.ceil(burstMs / 1000) + 1));
  expect(batches.at(-1)!.at - startedAt).toBeGreaterThanOrEqual((batches.length - 1) * 1000 - 100);
}

let patientN = 0;
async function dispatch(ambulanceId: number, token = operator) {
  patientN += 1;
  const res = await s.api('POST', '/live-location', {
    token,
    body: { to: `patient${patientN}@example.com`, status: 'active', patientName: `Patient ${patientN}`, description: 'Chest pain', license_plate: ambulanceId },
  });
  expect(res.status).toBe(201);
  return res.body.caseId as string;
}

/** Sends the tracking links for a case and reads both tokens out of the queued e-mails. */
async function trackingTokens(caseId: string, ambulanceId: number) {
  const init = await s.api('POST', '/api/tracking/initiate', { token: operator, body: { caseId, ambulanceId } });
  expect(init.status).toBe(200);
  const outbox = await s.api('GET', '/api/outbox', { token: admin });
  expect(outbox.status).toBe(200);
  const mine = outbox.body.messages.filter((m: any) => m.case_id === caseId);
  const link = (kind: string, prefix: string) => {
    const msg = mine.find((m: any) => m.kind === kind);
    expect(msg, `${kind} e-mail for case ${caseId}`).toBeDefined();
    const url = new URL(msg.links.find((l: string) => new URL(l).pathname === `${prefix}/${ambulanceId}`));
    const t = url.searchParams.get('t');
    expect(t).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    return t!;
  };
  return { viewer: link('tracking-patient', '/track'), driver: link('tracking-driver', '/driver') };
}

async function postPosition(ambulanceId: number, p: { latitude: number; longitude: number; timestamp?: number }) {
  const res = await s.api('POST', `/api/ambulances/${ambulanceId}/position`, { token: operator, body: p });
  expect(res.status).toBe(200);
  return res.body;
}

const positionsOf = async (ambulanceId: number) =>
  s.ctx.db('ambulance_positions').where({ ambulance_id: ambulanceId }).orderBy('id');

describe('handshake', () => {
  it('accepts a staff token and joins it to the staff room (admins also to admins)', async () => {
    const op = await connect({ token: operator });
    const ad = await connect({ token: admin });
    expect(op.connected).toBe(true);
    expect(ad.connected).toBe(true);
    const sockets = await s.io.fetchSockets();
    const roomsOf = (id: string) => [...sockets.find((x) => x.id === id)!.rooms].filter((r) => r !== id).sort();
    expect(roomsOf(op.id!)).toEqual([expect.stringMatching(/^session:\d+$/), 'staff', expect.stringMatching(/^staff#[0-7]$/)]);
    expect(roomsOf(ad.id!)).toEqual(['admins', expect.stringMatching(/^session:\d+$/), 'staff', expect.stringMatching(/^staff#[0-7]$/)]);
  });

  it('refuses no auth, a garbage token and an unknown viewer/driver token', async () => {
    expect((await refused({})).message).toBe('unauthorized');
    expect((await refused({ token: 'garbage' })).message).toBe('unauthorized');
    expect((await refused({ token: 'x'.repeat(43) })).message).toBe('unauthorized');
    expect((await refused({ token: 12345 })).message).toBe('unauthorized');
    expect((await refused({ trackToken: 'x'.repeat(43) })).message).toBe('unauthorized');
    expect((await refused({ driverToken: 'x'.repeat(43) })).message).toBe('unauthorized');
  });

  it('refuses a signed-out token', async () => {
    const token = await s.signIn('operator');
    const sock = await connect({ token });
    sock.disconnect();
    expect((await s.api('POST', '/api/auth/signout', { token })).status).toBe(200);
    expect((await refused({ token })).message).toBe('unauthorized');
  });

  it('refuses a viewer token offered as a driver token, and a tracking token offered as a staff token', async () => {
    const caseId = await dispatch(8);
    const { viewer, driver } = await trackingTokens(caseId, 8);
    expect((await refused({ driverToken: viewer })).message).toBe('unauthorized');
    expect((await refused({ token: viewer })).message).toBe('unauthorized');
    expect((await refused({ token: driver })).message).toBe('unauthorized');
    expect((await refused({ trackToken: operator })).message).toBe('unauthorized');
    // The same tokens in their own slots are fine, and join only their ambulance's room.
    const v = await connect({ trackToken: viewer });
    const d = await connect({ driverToken: driver });
    const sockets = await s.io.fetchSockets();
    const roomsOf = (id: string) => [...sockets.find((x) => x.id === id)!.rooms].filter((r) => r !== id).sort();
    expect(roomsOf(v.id!)).toEqual(['ambulance:8', `grant:${caseId}`, `viewer:${caseId}:8`]);
    expect(roomsOf(d.id!)).toEqual(['ambulance:8', `driver:${caseId}:8`, `grant:${caseId}`]);
  });
});

describe('events after a write', () => {
  let caseId: string;

  it('case.created and ambulance.updated (busy) reach an operator and an admin within a second of POST /live-location', async () => {
    const op = await connect({ token: operator });
    const ad = await connect({ token: admin });
    const before = await s.api('GET', '/api/ambulances', { token: operator });
    const version1 = before.body.ambulances.find((a: any) => a.id === 1).version;

    const waits = [op, ad].flatMap((sock) => [nextEvent(sock, 'case.created', 1000), nextEvent(sock, 'ambulance.updated', 1000)]);
    caseId = await dispatch(1);
    const [opCase, opAmb, adCase, adAmb] = await Promise.all(waits);

    const listed = (await s.api('GET', '/api/cases', { token: operator })).body.cases.find((c: any) => c.id === caseId);
    expect(opCase).toEqual(listed);
    expect(opCase).toMatchObject({ id: caseId, status: 'active', ambulance_id: 1, patientName: `Patient ${patientN}`, version: 1 });
    expect(adCase).toEqual(opCase);
    expect(opAmb).toMatchObject({ id: 1, status: 'busy', license_plate: 'TS09 EA 1001', email: 'driver1@lifeline.test', version: version1 + 1 });
    expect(adAmb).toEqual(opAmb);
  });

  it('case.updated reaches staff within a second of PUT /api/cases/:id', async () => {
    const op = await connect({ token: operator });
    const ad = await connect({ token: admin });
    const waits = [nextEvent(op, 'case.updated', 1000), nextEvent(ad, 'case.updated', 1000)];
    const res = await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { description: 'Chest pain, conscious' } });
    expect(res.status).toBe(200);
    const [a, b] = await Promise.all(waits);
    expect(a).toEqual(res.body.case);
    expect(a).toMatchObject({ id: caseId, status: 'active', description: 'Chest pain, conscious', version: 2 });
    expect(b).toEqual(a);
  });

  it('case.location reaches staff within a second of POST /api/location/:caseId', async () => {
    const op = await connect({ token: operator });
    const wait = nextEvent(op, 'case.location', 1000);
    const res = await shareLocation(s, caseId, { latitude: 17.123456789, longitude: 78.987654321, accuracy: 12 });
    expect(res.status).toBe(200);
    const ev = await wait;
    const row = await s.ctx.db('cases').where({ id: caseId }).first();
    expect(ev).toEqual({
      id: caseId,
      latitude: 17.12345679,
      longitude: 78.98765432,
      location_source: 'patient',
      location_accuracy: 12,
      location_updated_at: res.body.updated_at,
      patient_location: { latitude: 17.12345679, longitude: 78.98765432, accuracy: 12, updated_at: res.body.updated_at },
      location_mismatch_m: null,
      version: row.version,
    });
    expect(row.version).toBe(3);
  });

  it('user.created reaches the admin socket but not the operator socket', async () => {
    const op = await connect({ token: operator });
    const ad = await connect({ token: admin });
    const opSaw = record(op);
    const adminGot = nextEvent(ad, 'user.created', 1000);
    const res = await s.api('POST', '/api/users', {
      token: admin,
      body: { name: 'Nadia Rao', email: 'nadia@lifeline.test', role: 'operator', phone: '5550177', shift: 2, gender: 1, location: 'Desk 4', address: null },
    });
    expect(res.status).toBe(201);
    expect(await adminGot).toEqual(res.body.user);
    expect(res.body.user).toMatchObject({ name: 'Nadia Rao', email: 'nadia@lifeline.test', role: 'operator', shift: 2, gender: 1, version: 1 });
    await roundTrip(op);
    expect(opSaw).toEqual([]);
  });

  it('a refused dispatch (409, ambulance busy) emits nothing and writes nothing', async () => {
    const op = await connect({ token: operator });
    const saw = record(op);
    const cases = (await s.ctx.db('cases').count({ n: '*' }).first())!.n;
    const res = await s.api('POST', '/live-location', {
      token: operator,
      body: { to: 'late@example.com', status: 'active', patientName: 'Late', description: 'Fall', license_plate: 1 },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('TS09 EA 1001');
    await roundTrip(op);
    expect(saw).toEqual([]);
    expect((await s.ctx.db('cases').count({ n: '*' }).first())!.n).toBe(cases);
  });

  it('events recorded in a transaction that rolls back are never published', async () => {
    const op = await connect({ token: operator });
    const saw = record(op);
    const published: string[] = [];
    const off = s.ctx.bus.subscribe((e) => published.push(e.type));
    const fake = (await s.api('GET', `/api/cases/${caseId}`, { token: operator })).body.case;
    await expect(inTransaction(s.ctx, async (trx, rec) => {
      await trx('cases').where({ id: caseId }).update({ description: 'never committed' });
      rec({ type: 'case.updated', case: { ...fake, description: 'never committed' } });
      throw new Error('boom');
    })).rejects.toThrow('boom');
    off();
    await roundTrip(op);
    expect(published).toEqual([]);
    expect(saw).toEqual([]);
    expect((await s.ctx.db('cases').where({ id: caseId }).first()).description).toBe('Chest pain, conscious');
  });

  it('a listener that throws neither fails the committed write nor keeps the event from others', async () => {
    const op = await connect({ token: operator });
    const quiet = vi.spyOn(s.ctx.log, 'error');
    const later: string[] = [];
    const offBad = s.ctx.bus.subscribe(() => { throw new Error('listener broke'); });
    const offLater = s.ctx.bus.subscribe((e) => later.push(e.type));
    try {
      const heard = nextEvent(op, 'case.updated', 1000, (c) => c.id === caseId);
      const res = await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { caseType: 'Cardiac' } });
      expect(res.status).toBe(200);
      expect(res.body.case).toMatchObject({ id: caseId, caseType: 'Cardiac' });
      expect(await heard).toEqual(res.body.case);
      expect(later).toEqual(['case.updated']);
      expect(quiet).toHaveBeenCalled();
    } finally {
      offBad();
      offLater();
      quiet.mockRestore();
    }
  });

  it('publishes only once the write is visible to another connection (after commit)', async () => {
    const seenInDb: Record<string, boolean | Promise<boolean>> = {};
    if (s.engine === 'postgres') {
      // Another pool on the same schema; the query leaves from inside the listener, before the
      // publishing code goes on (a publish before the commit would find no row).
      const reader = openDatabase(s.config.databaseUrl);
      const off = s.ctx.bus.subscribe((e) => {
        if (e.type === 'case.created') seenInDb[e.case.id] = reader('cases').where({ id: e.case.id }).first().then(Boolean);
      });
      try {
        await reader.raw('select 1');
        const id = await dispatch(7);
        expect({ [id]: await seenInDb[id] }).toEqual({ [id]: true });
      } finally {
        off();
        await reader.destroy();
      }
      return;
    }
    const reader = new Database(s.config.databaseUrl, { readonly: true, fileMustExist: true });
    const off = s.ctx.bus.subscribe((e) => {
      // Synchronous read on a separate connection: sees only committed data.
      if (e.type === 'case.created') seenInDb[e.case.id] = !!reader.prepare('select id from cases where id = ?').get(e.case.id);
    });
    try {
      const id = await dispatch(7);
      expect(seenInDb).toEqual({ [id]: true });
    } finally {
      off();
      reader.close();
    }
  });
});

describe('tracking viewers and drivers', () => {
  let caseId: string;
  let tokens: { viewer: string; driver: string };

  beforeAll(async () => {
    caseId = await dispatch(2);
    tokens = await trackingTokens(caseId, 2);
  });

  it('a viewer receives only its own case (with the patient\'s shared location) and its own ambulance\'s positions, as track.* events', async () => {
    const viewer = await connect({ trackToken: tokens.viewer });
    const op = await connect({ token: operator });
    const saw = record(viewer);

    // case.updated for the viewer's own case (the whole case): staff only; the viewer gets its track.case (no e-mail, no assignment).
    const staffUpdate = nextEvent(op, 'case.updated', 1000, (c) => c.id === caseId);
    expect((await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { description: 'Breathing difficulty' } })).status).toBe(200);
    await staffUpdate;
    // The patient's own shared location reaches the link holder (the patient's tracking page shows it), as its track.case.
    const staffLocation = nextEvent(op, 'case.location', 1000, (l) => l.id === caseId);
    const viewerLocation = nextEvent(viewer, 'track.case', 1000, (u) => u.patient != null);
    expect((await shareLocation(s, caseId, { latitude: 17.4, longitude: 78.45 })).status).toBe(200);
    await staffLocation;
    expect(await viewerLocation).toMatchObject({ case: { id: caseId }, patient: { latitude: 17.4, longitude: 78.45 }, destination: { latitude: 17.4, longitude: 78.45, source: 'patient' } });
    // ambulance.updated for the viewer's own ambulance carries the driver's e-mail: staff only.
    const staffAmb = nextEvent(op, 'ambulance.updated', 1000, (a) => a.id === 2);
    expect((await s.api('PUT', '/api/ambulances/2', { token: admin, body: { email: 'new.driver2@lifeline.test' } })).status).toBe(200);
    expect(await staffAmb).toMatchObject({ id: 2, email: 'new.driver2@lifeline.test' });
    // A new case elsewhere: case.created + ambulance.updated, staff only.
    const staffCreated = nextEvent(op, 'case.created', 1000);
    await dispatch(6);
    await staffCreated;

    // Positions: its own ambulance, within a second, as points of its trail.
    const ts = Date.now();
    const own = nextEvent(viewer, 'track.position', 1000);
    await postPosition(2, { latitude: 17.401, longitude: 78.451, timestamp: ts });
    expect(await own).toEqual({ positions: [{ ambulanceId: 2, latitude: 17.401, longitude: 78.451, recorded_at: new Date(ts).toISOString() }] });
    // Another ambulance's position: not for this viewer; nor is the staff batch that carries it.
    const staffBatch = nextEvent(op, 'ambulance.position', 2500, (b: { positions: any[] }) => b.positions.some((p) => p.ambulanceId === 3));
    await postPosition(3, { latitude: 17.5, longitude: 78.5, timestamp: Date.now() });
    await staffBatch;
    await roundTrip(viewer);

    expect(saw.map((e) => e.event)).toEqual(['track.case', 'track.case', 'track.position']);
    expect(saw[0].payload).toEqual({
      ambulanceId: 2, case: { id: caseId, status: 'active', patientName: expect.any(String), description: 'Breathing difficulty' },
      patient: null, unit_status: 'dispatched', destination: null,
    });
    expect(JSON.stringify(saw)).not.toContain('driver');
    expect(JSON.stringify(saw)).not.toContain('@');
  });

  it('a driver socket sends positions with an ack; they are stored and broadcast to its ambulance\'s links', async () => {
    const driver = await connect({ driverToken: tokens.driver });
    const viewer = await connect({ trackToken: tokens.viewer });
    const before = (await positionsOf(2)).length;
    const ts = Date.now();
    const heard = nextEvent(viewer, 'track.position', 1000);
    const ack = await driver.timeout(1000).emitWithAck('ambulance.position', { latitude: 17.41, longitude: 78.46, accuracy: 8, heading: 90, speed: 12.5, timestamp: ts });
    expect(ack).toEqual({ ok: true, latest: true });
    const rows = await positionsOf(2);
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({
      ambulance_id: 2, latitude: 17.41, longitude: 78.46, accuracy: 8, heading: 90, speed: 12.5,
      recorded_at: new Date(ts).toISOString(), source: 'driver',
    });
    expect(await heard).toEqual({ positions: [{ ambulanceId: 2, latitude: 17.41, longitude: 78.46, recorded_at: new Date(ts).toISOString() }] });
    const amb = await s.ctx.db('ambulances').where({ id: 2 }).first();
    expect(amb).toMatchObject({ latitude: 17.41, longitude: 78.46, position_at: new Date(ts).toISOString() });

    // Without a timestamp the receive time is used.
    expect(await driver.timeout(1000).emitWithAck('ambulance.position', { latitude: 17.42, longitude: 78.47 })).toEqual({ ok: true, latest: true });
    expect((await positionsOf(2)).length).toBe(before + 2);

    // An older fix is kept in the history but is not the latest.
    expect(await driver.timeout(1000).emitWithAck('ambulance.position', { latitude: 17.3, longitude: 78.3, timestamp: ts - 60_000 })).toEqual({ ok: true, latest: false });
    expect((await positionsOf(2)).length).toBe(before + 3);
    expect((await s.ctx.db('ambulances').where({ id: 2 }).first()).latitude).toBe(17.42);
  });

  it('an invalid position from a driver is refused in the ack and nothing is stored', async () => {
    const driver = await connect({ driverToken: tokens.driver });
    const before = (await positionsOf(2)).length;
    const bad: unknown[] = [
      { latitude: 200, longitude: 78.4 },
      { latitude: 17.4, longitude: -181 },
      { latitude: '17.4', longitude: 78.4 },
      { latitude: 17.4 },
      'a string',
      null,
      { latitude: 17.4, longitude: 78.4, timestamp: Date.now() + 3_600_000 },
    ];
    for (const payload of bad) {
      const ack = await driver.timeout(1000).emitWithAck('ambulance.position', payload as any);
      expect(ack, JSON.stringify(payload)).toEqual({ ok: false, error: expect.any(String) });
      expect(ack.error.length).toBeGreaterThan(0);
    }
    const first = await driver.timeout(1000).emitWithAck('ambulance.position', { latitude: 200, longitude: 78.4 } as any);
    expect(first.error).toMatch(/^latitude: /);
    expect((await positionsOf(2)).length).toBe(before);
    expect(driver.connected).toBe(true);
  });

  it('viewer and staff sockets may not send positions', async () => {
    const viewer = await connect({ trackToken: tokens.viewer });
    const op = await connect({ token: operator });
    const ad = await connect({ token: admin });
    const before = (await positionsOf(2)).length;
    for (const sock of [viewer, op, ad]) {
      expect(await sock.timeout(1000).emitWithAck('ambulance.position', { latitude: 17.4, longitude: 78.4 }))
        .toEqual({ ok: false, error: 'Only a driver link may send positions' });
    }
    expect((await positionsOf(2)).length).toBe(before);
  });
});

describe('position coalescing', () => {
  it('every staff board gets the tick\'s batch once, whichever shard it sits in (12 boards over 8 shards)', async () => {
    const boards = await Promise.all(Array.from({ length: 12 }, () => connect({ token: operator })));
    const batches = boards.map((b) => staffBatchesOf(b));
    const at = Date.now();
    expect(await postPosition(7, { latitude: 17.35, longitude: 78.45, timestamp: at })).toEqual({ ok: true, latest: true });
    await sleep(1500);
    for (const b of batches) b.stop();
    const mine = batches.map((b) => b.seen.filter((x) => x.positions.some((p) => p.ambulanceId === 7 && p.recorded_at === new Date(at).toISOString())).length);
    expect(mine).toEqual(Array(12).fill(1));
  });

  it('a burst of 100 positions reaches staff as at most 3 batches ending with the newest, and the viewer in full and in order', async () => {
    const caseId = await dispatch(4);
    const { viewer: viewerToken } = await trackingTokens(caseId, 4);
    const staff = await connect({ token: operator });
    const viewer = await connect({ trackToken: viewerToken });
    const staffBatches = staffBatchesOf(staff);
    const viewerBatches = collect<{ positions: any[] }>(viewer, 'track.position');

    const base = Date.now();
    const sent = Array.from({ length: 100 }, (_, i) => ({ latitude: 17.3 + i / 1000, longitude: 78.4 + i / 1000, timestamp: base + i }));
    for (const p of sent) expect(await postPosition(4, p)).toEqual({ ok: true, latest: true });
    const burstMs = Date.now() - base;
    const wanted = sent.map((p) => ({ ambulanceId: 4, latitude: p.latitude, longitude: p.longitude, accuracy: null, heading: null, speed: null, recorded_at: new Date(p.timestamp).toISOString(), source: 'staff', battery: null }));

    // The staff room is flushed once a second: the newest position arrives within one flush.
    const newest = wanted.at(-1)!;
    const deadline = Date.now() + 1500;
    const hasNewest = () => staffBatches.seen.some((b) => b.positions.some((p) => p.ambulanceId === 4 && p.recorded_at === newest.recorded_at));
    while (!hasNewest() && Date.now() < deadline) await sleep(20);
    expect(hasNewest()).toBe(true);
    await sleep(1100); // no further batch for this burst
    staffBatches.stop();
    viewerBatches.stop();

    const mine = staffBatches.seen.filter((b) => b.positions.some((p) => p.ambulanceId === 4));
    expectCoalesced(mine, burstMs, base);
    for (const b of staffBatches.seen) {
      const ids = b.positions.map((p) => p.ambulanceId);
      expect(new Set(ids).size).toBe(ids.length); // latest per ambulance: one entry each
    }
    expect(mine.at(-1)!.positions.find((p) => p.ambulanceId === 4)).toEqual(newest);

    // The ambulance's links get every position, one per message, in order.
    expect(viewerBatches.seen.every((b) => b.positions.length === 1)).toBe(true);
    expect(viewerBatches.seen.flatMap((b) => b.positions)).toEqual(wanted.map((p) => ({ ambulanceId: p.ambulanceId, latitude: p.latitude, longitude: p.longitude, recorded_at: p.recorded_at })));
    const stored = (await positionsOf(4)).slice(-100);
    expect(stored.map((r: any) => [r.latitude, r.longitude, r.recorded_at, r.source])).toEqual(wanted.map((p) => [p.latitude, p.longitude, p.recorded_at, 'staff']));
  });

  it('a driver socket burst is coalesced for staff and complete for its viewer too', async () => {
    const caseId = await dispatch(5);
    const { viewer: viewerToken, driver: driverToken } = await trackingTokens(caseId, 5);
    const staff = await connect({ token: admin });
    const viewer = await connect({ trackToken: viewerToken });
    const driver = await connect({ driverToken });
    const staffBatches = staffBatchesOf(staff);
    const viewerBatches = collect<{ positions: any[] }>(viewer, 'track.position');

    const started = Date.now();
    // Fixes taken just before (a fix is stored as taken at its arrival at the latest).
    const base = started - 1000;
    const acks = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      driver.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.2 + i / 1000, longitude: 78.3, timestamp: base + i })));
    const burstMs = Date.now() - started;
    if (s.engine === 'postgres') {
      // A pool runs the writes at once: a fix may commit after a newer one and answer latest: false
      // (kept in the history, never moving the marker back). SQLite's one connection keeps them in order.
      expect(acks.every((a: any) => a.ok === true)).toBe(true);
      expect(acks.at(-1)).toEqual({ ok: true, latest: true });
    } else expect(acks).toEqual(Array(100).fill({ ok: true, latest: true }));
    const last = new Date(base + 99).toISOString();
    const deadline = Date.now() + 1500;
    const hasNewest = () => staffBatches.seen.some((b) => b.positions.some((p) => p.ambulanceId === 5 && p.recorded_at === last));
    while ((!hasNewest() || viewerBatches.seen.length < 100) && Date.now() < deadline) await sleep(20);
    await sleep(1100);
    staffBatches.stop();
    viewerBatches.stop();

    const mine = staffBatches.seen.filter((b) => b.positions.some((p) => p.ambulanceId === 5));
    expectCoalesced(mine, burstMs, started);
    expect(mine.at(-1)!.positions.find((p) => p.ambulanceId === 5)).toMatchObject({ latitude: 17.299, recorded_at: last });
    expect(viewerBatches.seen.flatMap((b) => b.positions).map((p) => p.recorded_at))
      .toEqual(Array.from({ length: 100 }, (_, i) => new Date(base + i).toISOString()));
    expect((await s.ctx.db('ambulance_positions').where({ ambulance_id: 5, source: 'driver' }).count({ n: '*' }).first())!.n).toBe(100);
  });
});

describe('revocation disconnects sockets', () => {
  it('signing out disconnects that session\'s socket within a second, not the same user\'s other session', async () => {
    const token = await s.signIn('operator');
    const other = await s.signIn('operator');
    const sock = await connect({ token });
    const keep = await connect({ token: other });
    const gone = nextEvent(sock, 'disconnect', 1000);
    expect((await s.api('POST', '/api/auth/signout', { token })).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
    await roundTrip(keep);
    expect(sock.connected).toBe(false);
    expect(keep.connected).toBe(true);
    expect((await refused({ token })).message).toBe('unauthorized');
  });

  it('deleting an operator disconnects their sockets within a second and tells admins', async () => {
    const created = await s.api('POST', '/api/users', {
      token: admin,
      body: { name: 'Ravi Kumar', email: 'ravi@lifeline.test', role: 'operator', phone: '555-0188', shift: 3, gender: 0 },
    });
    expect(created.status).toBe(201);
    const id = created.body.user.id;
    const token = await s.signIn({ email: 'ravi@lifeline.test', username: 'Ravi Kumar', phone: '5550188' });
    const sock = await connect({ token });
    const ad = await connect({ token: admin });
    const bystander = await connect({ token: operator });
    const gone = nextEvent(sock, 'disconnect', 1000);
    const told = nextEvent(ad, 'user.deleted', 1000);
    expect((await s.api('DELETE', `/api/users/${id}`, { token: admin })).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await told).toEqual({ id });
    await roundTrip(bystander);
    expect(bystander.connected).toBe(true);
    expect((await refused({ token })).message).toBe('unauthorized');
  });

  it('closing a case disconnects its viewer and driver sockets within a second; the viewer token is refused afterwards, the driver token only waits', async () => {
    const caseId = await dispatch(3);
    const { viewer: viewerToken, driver: driverToken } = await trackingTokens(caseId, 3);
    const viewer = await connect({ trackToken: viewerToken });
    const driver = await connect({ driverToken });
    // Another case's viewer stays connected.
    const keepCase = (await s.api('GET', '/api/cases', { token: operator })).body.cases.find((c: any) => c.status === 'active' && c.ambulance_id === 2);
    expect(keepCase).toBeDefined();
    const keepTokens = await trackingTokens(keepCase.id, 2);
    const keep = await connect({ trackToken: keepTokens.viewer });

    const viewerGone = nextEvent(viewer, 'disconnect', 1000);
    const driverGone = nextEvent(driver, 'disconnect', 1000);
    const res = await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { status: 'closed' } });
    expect(res.status).toBe(200);
    expect(res.body.case).toMatchObject({ id: caseId, status: 'closed' });
    expect(await viewerGone).toBe('io server disconnect');
    expect(await driverGone).toBe('io server disconnect');
    await roundTrip(keep);
    expect(keep.connected).toBe(true);

    expect((await refused({ trackToken: viewerToken })).message).toBe('unauthorized');
    // The driver link waits for its ambulance's next call (driverLive.test.ts): in its standby room only, and it may send nothing.
    const waiting = await connect({ driverToken });
    const sockets = await s.io.fetchSockets();
    expect([...sockets.find((x) => x.id === waiting.id)!.rooms].filter((r) => r !== waiting.id)).toEqual(['standby:3']);
    expect(await waiting.timeout(1000).emitWithAck('ambulance.position', { latitude: 17.4, longitude: 78.4 })).toMatchObject({ ok: false });
    expect((await s.api('POST', `/api/ambulances/3/position?t=${driverToken}`, { body: { latitude: 17.4, longitude: 78.4 } })).status).toBe(403);
  });

  it('deleting a case disconnects its viewer socket within a second', async () => {
    const caseId = await dispatch(3);
    const { viewer: viewerToken } = await trackingTokens(caseId, 3);
    const viewer = await connect({ trackToken: viewerToken });
    const gone = nextEvent(viewer, 'disconnect', 1000);
    expect((await s.api('DELETE', `/api/cases/${caseId}`, { token: admin })).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect((await refused({ trackToken: viewerToken })).message).toBe('unauthorized');
  });
});

describe('session expiry', () => {
  const short = useTestServer({ env: { SESSION_HOURS: String(1.5 / 3600) } });

  it('disconnects a staff socket when its session expires, and refuses the token afterwards', async () => {
    const token = await short.signIn('operator');
    const sock = await short.socket({ token });
    const gone = nextEvent(sock, 'disconnect', 2500);
    expect(await gone).toBe('io server disconnect');
    await expect(short.socket({ token })).rejects.toThrow('unauthorized');
    expect((await short.api('GET', '/api/auth/profile', { token })).status).toBe(401);
  });
});
