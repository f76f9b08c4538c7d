import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRIVER_STANDBY_MS } from '../policies/links';
import { dispatchCase, expectStatus, trackingTokens, updateCase } from '../testing/dispatchHelpers';
import { nextEvent, roundTrip, useTestServer } from '../testing/testServer';
import { sleep } from '../testing/wait';

/**
 * The crew's phone as live as the board (issue 25, items 7 and 3): a step set by staff reaches the
 * driver link's socket as `track.case` at the commit; a driver link whose call ended waits (standby)
 * and hears only its own ambulance's next call, with a new driver link for it; nothing else leaks.
 */

const s = useTestServer();
let operator: string;
let admin: string;
let open: Socket<any, any>[] = [];

beforeAll(async () => {
  operator = await s.signIn('operator');
  admin = await s.signIn('admin');
});
afterEach(() => {
  for (const sock of open) sock.disconnect();
  open = [];
});

/** Every event a socket hears, listened to before its handshake (a standby socket is told its state at once). */
interface Heard { event: string; payload: any; at: number }
async function link(auth: Record<string, unknown>): Promise<{ sock: Socket<any, any>; heard: Heard[] }> {
  const sock = connectSocket(s.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false });
  open.push(sock);
  const heard: Heard[] = [];
  sock.onAny((event: string, payload: any) => heard.push({ event, payload, at: Date.now() }));
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', () => resolve());
    sock.once('connect_error', reject);
    sock.connect();
  });
  return { sock, heard };
}

async function refused(auth: Record<string, unknown>): Promise<string> {
  try {
    await link(auth);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the handshake was accepted');
}

const heardOf = (heard: Heard[], event: string) => heard.filter((h) => h.event === event);
async function waitHeard(heard: Heard[], event: string, ms = 1000, match: (p: any) => boolean = () => true): Promise<Heard> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = heard.find((h) => h.event === event && match(h.payload));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${event} within ${ms} ms (heard ${heard.map((h) => h.event).join(', ') || 'nothing'})`);
    await sleep(10);
  }
}

const roomsOf = async (id: string) => {
  const sockets = await s.io.fetchSockets();
  return [...sockets.find((x) => x.id === id)!.rooms].filter((r) => r !== id).sort();
};

const setStep = (ambulanceId: number, status: string, t?: string) =>
  s.api('POST', `/api/ambulances/${ambulanceId}/unit-status${t ? `?t=${t}` : ''}`, t ? { body: { status } } : { token: operator, body: { status } });

describe('board → phone: a step set by staff reaches the driver link at the commit', () => {
  it('POST /api/ambulances/{id}/unit-status by staff reaches the driver socket as track.case within a second, with its assignment', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const tokens = await trackingTokens(s, operator, caseId, 1);
    const driver = await link({ driverToken: tokens.driver });
    const viewer = await link({ trackToken: tokens.viewer });
    // Another case's driver hears nothing of it.
    const other = await dispatchCase(s, operator, 2);
    const bystander = await link({ driverToken: (await trackingTokens(s, operator, other, 2)).driver });
    expect(await roomsOf(driver.sock.id!)).toEqual(['ambulance:1', `driver:${caseId}:1`, `grant:${caseId}`]);
    expect(await roomsOf(viewer.sock.id!)).toEqual(['ambulance:1', `grant:${caseId}`, `viewer:${caseId}:1`]);

    const pressed = Date.now();
    const res = expectStatus(await setStep(1, 'en_route'), 200, 'staff step');
    const got = await waitHeard(driver.heard, 'track.case', 1000);
    expect(got.at - pressed).toBeLessThan(1000);
    expect(got.payload).toMatchObject({
      ambulanceId: 1, case: { id: caseId, status: 'active' }, unit_status: 'en_route', priority: expect.any(Number),
      assignment: { id: res.body.assignment.id, status: 'en_route', en_route_at: res.body.assignment.en_route_at },
    });
    // The patient's tracking link hears the step only: no assignment, no priority.
    const seen = (await waitHeard(viewer.heard, 'track.case', 1000)).payload;
    expect(seen).toMatchObject({ ambulanceId: 1, case: { id: caseId }, unit_status: 'en_route' });
    expect(seen).not.toHaveProperty('assignment');
    expect(seen).not.toHaveProperty('priority');
    expect(seen.destination?.address ?? null).toBeNull();
    await roundTrip(bystander.sock);
    expect(heardOf(bystander.heard, 'track.case')).toEqual([]);

    // The same for every later step and for a staff edit of the case (its priority).
    expectStatus(await updateCase(s, operator, caseId, { priority: 1 }), 200, 'priority');
    await waitHeard(driver.heard, 'track.case', 1000, (p) => p.priority === 1);
    expectStatus(await setStep(1, 'on_scene'), 200, 'on scene');
    await waitHeard(driver.heard, 'track.case', 1000, (p) => p.assignment?.status === 'on_scene');
  });
});

describe('a driver link whose call ended waits for its ambulance\'s next call', () => {
  it('after the crew\'s Clear: told it waits (12 h), hears only its ambulance\'s next call with a driver link for it, once', async () => {
    const first = await dispatchCase(s, operator, 3);
    const tokens = await trackingTokens(s, operator, first, 3);
    const live = await link({ driverToken: tokens.driver });
    const gone = nextEvent(live.sock, 'disconnect', 2000);
    expectStatus(await setStep(3, 'on_scene', tokens.driver), 200, 'on scene');
    expectStatus(await setStep(3, 'cleared', tokens.driver), 200, 'clear');
    // The last word before the disconnect: the case is over.
    await waitHeard(live.heard, 'track.case', 1000, (p) => p.unit_status === 'cleared' && p.case.status === 'resolved');
    expect(await gone).toBe('io server disconnect');
    // The link itself no longer drives.
    expect((await s.api('GET', `/api/track/3?t=${tokens.driver}`)).status).toBe(404);
    expect((await s.api('POST', `/api/ambulances/3/position?t=${tokens.driver}`, { body: { latitude: 17.4, longitude: 78.4 } })).status).toBe(403);

    const waiting = await link({ driverToken: tokens.driver });
    const told = (await waitHeard(waiting.heard, 'driver.standby')).payload;
    expect(told).toEqual({ ambulanceId: 3, license_plate: 'TS09 EA 1003', caseId: first, ended: 'cleared', until: expect.any(String) });
    const cleared = (await s.ctx.db('assignments').where({ case_id: first }).first()).cleared_at;
    expect(Date.parse(told.until) - Date.parse(cleared)).toBe(DRIVER_STANDBY_MS);
    expect(await roomsOf(waiting.sock.id!)).toEqual(['standby:3']);
    // It may send nothing.
    expect(await waiting.sock.timeout(1000).emitWithAck('ambulance.position', { latitude: 17.4, longitude: 78.4 }))
      .toEqual({ ok: false, error: 'This call has ended; this link waits for the next call' });
    expect(await waiting.sock.timeout(1000).emitWithAck('unit.status', { status: 'en_route' }))
      .toEqual({ ok: false, error: 'This call has ended; this link waits for the next call' });

    // Other ambulances' calls and positions: nothing.
    const elsewhere = await dispatchCase(s, operator, 4);
    expectStatus(await s.api('POST', '/api/ambulances/3/position', { token: operator, body: { latitude: 17.41, longitude: 78.41 } }), 200, 'position');
    await sleep(200); // an offer leaves after a query of its own (realtime/standby.ts): a round trip could overtake it
    expect(waiting.heard.map((h) => h.event)).toEqual(['driver.standby']);

    // Its own ambulance's next call: at once, with a driver link of its own.
    const before = Date.now();
    const next = await dispatchCase(s, operator, 3);
    const offer = (await waitHeard(waiting.heard, 'driver.dispatched', 1000)).payload;
    expect(Date.now() - before).toBeLessThan(1500);
    expect(offer).toEqual({ ambulanceId: 3, caseId: next, priority: expect.any(Number), link: expect.stringMatching(/^\/driver\/3\?t=[A-Za-z0-9_-]{22,}$/), from: { caseId: first, ended: 'cleared' } });
    const t = new URL(offer.link, 'http://x').searchParams.get('t')!;
    const tracked = expectStatus(await s.api('GET', `/api/track/3?t=${t}`), 200, 'the new link').body;
    expect(tracked).toMatchObject({ role: 'driver', case: { id: next }, assignment: { status: 'dispatched' }, unit_status: 'dispatched' });
    // On the new call's timeline, as handed to the open page.
    const entries = (await s.ctx.db('case_events').where({ case_id: next, action: 'tracking' })).map((e: any) => JSON.parse(e.after));
    expect(entries.filter((e: any) => 'driver_link' in e)).toEqual([{ ambulance_id: 3, driver_link: "handed to the crew's open driver page", from_case_id: first }]);

    // Later changes of that call do not offer it again.
    expectStatus(await updateCase(s, operator, next, { description: 'Fall, conscious' }), 200, 'edit');
    await sleep(200); // as above: an offer would leave after a query
    expect(heardOf(waiting.heard, 'driver.dispatched')).toHaveLength(1);
    expect(elsewhere).not.toBe(next);
    expectStatus(await updateCase(s, operator, next, { status: 'closed' }), 200, 'close');
    expectStatus(await updateCase(s, operator, elsewhere, { status: 'closed' }), 200, 'close');
  });

  it('a diverted unit\'s page: the link waits as taken off the call, and its next call is offered even when it came before the reconnect', async () => {
    const first = await dispatchCase(s, operator, 5);
    const tokens = await trackingTokens(s, operator, first, 5);
    const live = await link({ driverToken: tokens.driver });
    const gone = nextEvent(live.sock, 'disconnect', 2000);
    // The dispatcher gives the call another unit: this one is taken off it (its socket closed with its link) …
    expectStatus(await updateCase(s, operator, first, { ambulance_id: 6 }), 200, 'reassign');
    expect(await gone).toBe('io server disconnect');
    // (the call's new unit is none of its business)
    expect(heardOf(live.heard, 'track.case')).toEqual([]);
    // … and sent to another call before its page reconnects.
    const next = await dispatchCase(s, operator, 5);
    const waiting = await link({ driverToken: tokens.driver });
    expect((await waitHeard(waiting.heard, 'driver.standby')).payload).toMatchObject({ caseId: first, ended: 'cancelled' });
    const offer = (await waitHeard(waiting.heard, 'driver.dispatched', 1000)).payload;
    expect(offer).toMatchObject({ ambulanceId: 5, caseId: next, from: { caseId: first, ended: 'cancelled' } });
    // The call it was taken off (now ambulance 6's) is none of this link's business: nothing of it was heard.
    expect(waiting.heard.map((h) => h.event)).toEqual(['driver.standby', 'driver.dispatched']);
    for (const id of [first, next]) expectStatus(await updateCase(s, operator, id, { status: 'closed' }), 200, 'close');
  });

  it('a unit diverted to a more urgent waiting call (POST /api/cases/{id}/dispatch): its open page is taken off the low call and offered the urgent one at once', async () => {
    const low = await dispatchCase(s, operator, 4, { priority: 4 });
    const tokens = await trackingTokens(s, operator, low, 4);
    const live = await link({ driverToken: tokens.driver });
    const gone = nextEvent(live.sock, 'disconnect', 2000);
    const created = await s.api('POST', '/api/cases', {
      token: operator, body: { to: 'urgent@example.com', patientName: 'Urgent Caller', description: 'Cardiac arrest', priority: 1, status: 'pending' },
    });
    const urgent = expectStatus(created, 201, 'waiting call').body.case.id as string;
    expectStatus(await s.api('POST', `/api/cases/${urgent}/dispatch`, { token: operator, body: { ambulance_id: 4, take_from_case_id: low } }), 200, 'divert');
    // The low call goes back to the queue: the page hears its unit was taken off it, then its link closes …
    await waitHeard(live.heard, 'track.case', 1000, (p) => p.unit_status === 'cancelled' && p.case.status === 'pending');
    expect(await gone).toBe('io server disconnect');
    // … and, reconnecting, it waits as taken off the call and is offered the urgent call at once.
    const waiting = await link({ driverToken: tokens.driver });
    expect((await waitHeard(waiting.heard, 'driver.standby')).payload).toMatchObject({ caseId: low, ended: 'cancelled' });
    expect((await waitHeard(waiting.heard, 'driver.dispatched', 1000)).payload)
      .toMatchObject({ ambulanceId: 4, caseId: urgent, priority: 1, from: { caseId: low, ended: 'cancelled' } });
    for (const id of [low, urgent]) expectStatus(await updateCase(s, operator, id, { status: 'closed' }), 200, 'close');
  });

  it('no standby for a viewer link, a deleted call\'s link, or after 12 hours', async () => {
    const a = await dispatchCase(s, operator, 7);
    const ta = await trackingTokens(s, operator, a, 7);
    expectStatus(await updateCase(s, operator, a, { status: 'closed' }), 200, 'close');
    expect(await refused({ trackToken: ta.viewer })).toBe('unauthorized');
    expect(await refused({ driverToken: ta.viewer })).toBe('unauthorized');
    // Its driver link waits, until 12 hours after the end.
    const waiting = await link({ driverToken: ta.driver });
    expect((await waitHeard(waiting.heard, 'driver.standby')).payload).toMatchObject({ caseId: a, ended: 'cancelled' });
    waiting.sock.disconnect();
    const old = new Date(Date.now() - DRIVER_STANDBY_MS - 60_000).toISOString();
    await s.ctx.db('assignments').where({ case_id: a }).update({ cancelled_at: old });
    expect(await refused({ driverToken: ta.driver })).toBe('unauthorized');

    // A deleted call's links are gone with it.
    const b = await dispatchCase(s, operator, 8);
    const tb = await trackingTokens(s, operator, b, 8);
    expectStatus(await s.api('DELETE', `/api/cases/${b}`, { token: admin }), 200, 'delete');
    expect(await refused({ driverToken: tb.driver })).toBe('unauthorized');
  });

  it('a driver link follows its ambulance to the NEXT call only: once that call is over, the old link is dead (a leaked link does not chain to the calls after)', async () => {
    const a = await dispatchCase(s, operator, 6);
    const ta = await trackingTokens(s, operator, a, 6);
    expectStatus(await updateCase(s, operator, a, { status: 'closed' }), 200, 'close the first call');
    // The next call: the old link's page (the crew's, reconnecting) is offered it.
    const b = await dispatchCase(s, operator, 6);
    const waiting = await link({ driverToken: ta.driver });
    expect((await waitHeard(waiting.heard, 'driver.dispatched', 1000)).payload).toMatchObject({ ambulanceId: 6, caseId: b, from: { caseId: a } });
    waiting.sock.disconnect();
    // That call over and another dispatched, well within 12 hours of the first's end: the first link opens nothing.
    expectStatus(await updateCase(s, operator, b, { status: 'closed' }), 200, 'close the next call');
    expect(await refused({ driverToken: ta.driver })).toBe('unauthorized');
    const c = await dispatchCase(s, operator, 6);
    expect(await refused({ driverToken: ta.driver })).toBe('unauthorized');
    // The call's own mailed link (and a link handed over for it) still drive; the crew is mailed one at every dispatch.
    const tc = await trackingTokens(s, operator, c, 6);
    expect((await s.api('GET', `/api/track/6?t=${tc.driver}`)).status).toBe(200);
    expectStatus(await updateCase(s, operator, c, { status: 'closed' }), 200, 'close the third call');
  });
});
