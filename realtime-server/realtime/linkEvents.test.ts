import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, rememberLocationLink, shareLocation, trackingTokens, updateCase } from '../testing/dispatchHelpers';
import { useTestServer } from '../testing/testServer';
import { waitFor } from '../testing/wait';

/**
 * Issue 26, item 6: a tracking link is forwardable, so what its socket hears is exactly what
 * GET /api/track answers it, on every channel. This walks one call's whole life (dispatch,
 * positions by REST and by the driver's socket, the patient's shares, an intake location edit,
 * the case's edits, every step, a correction, the end) and holds each event a link's socket
 * hears against that link's own /api/track answer right after it.
 */

const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '100000' } });
const AMBULANCE = 3;
const PATIENT = { name: 'Meena Rao', email: 'meena.rao@example.com' };
const HOME = { latitude: 17.3615636, longitude: 78.4746645, address: 'Flat 4, Road 12, Banjara Hills', source: 'address' };
const NEW_HOME = { latitude: 17.4325, longitude: 78.4071, address: 'Plot 9, Jubilee Hills Road 36', source: 'address' };
/** About 2.6 km from HOME: far enough for the board's mismatch flag. */
const FAR = { latitude: 17.385, longitude: 78.4747 };

interface Heard { event: string; payload: any }
let operator: string;
let caseId: string;
let tokens: { viewer: string; driver: string };
const sockets: Socket<any, any>[] = [];

async function listen(auth: Record<string, unknown>): Promise<{ sock: Socket<any, any>; heard: Heard[] }> {
  const sock = connectSocket(s.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false });
  sockets.push(sock);
  const heard: Heard[] = [];
  sock.onAny((event: string, payload: any) => heard.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', () => resolve());
    sock.once('connect_error', reject);
    sock.connect();
  });
  return { sock, heard };
}

const track = async (t: string) => expectStatus(await s.api('GET', `/api/track/${AMBULANCE}?t=${t}`), 200, 'GET /api/track').body;
const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/**
 * What /api/track says about the thing an event tells: a `track.case` is the answer's own fields,
 * a `track.position` its newest point and trail end. Any other event has no counterpart there.
 */
function asRest(e: Heard, rest: any): unknown {
  if (e.event === 'track.case') return pick(rest, Object.keys(e.payload ?? {}));
  if (e.event === 'track.position') {
    return { positions: [{ ambulanceId: rest.ambulanceId, latitude: rest.latitude, longitude: rest.longitude, recorded_at: rest.updated_at }] };
  }
  return { [`no ${e.event} in GET /api/track`]: true };
}

/** Runs one step of the call, waits until each link heard `n` more events, and holds them against /api/track. */
async function step(what: string, links: { heard: Heard[]; token: string }[], n: number, act: () => Promise<unknown>) {
  const from = links.map((l) => l.heard.length);
  await act();
  for (const [i, l] of links.entries()) {
    await waitFor(() => l.heard.length >= from[i] + n, `${what}: ${n} event(s) on a link`);
    const rest = await track(l.token);
    for (const e of l.heard.slice(from[i])) {
      expect(e.payload, `${what}: ${e.event} to ${rest.role}`).toEqual(asRest(e, rest));
      if (e.event === 'track.position') expect(rest.trail.at(-1)).toEqual({ latitude: rest.latitude, longitude: rest.longitude, recorded_at: rest.updated_at });
    }
  }
}

beforeAll(async () => {
  operator = await s.signIn('operator');
  // A waiting call located at intake, then dispatched: its links are minted with the dispatch.
  const created = rememberLocationLink(await s.api('POST', '/api/cases', {
    token: operator,
    body: { email: PATIENT.email, patientName: PATIENT.name, description: 'Fall, hip pain', caseType: 'Injury', status: 'pending', intake_location: HOME },
  }));
  caseId = expectStatus(created, 201, 'create').body.case.id;
  expectStatus(await s.api('POST', `/api/cases/${caseId}/dispatch`, { token: operator, body: { ambulance_id: AMBULANCE } }), 200, 'dispatch');
  tokens = await trackingTokens(s, operator, caseId, AMBULANCE);
});
afterAll(() => { for (const sock of sockets) sock.disconnect(); });

describe("a link's socket hears what /api/track answers it, over a call's whole life", () => {
  it('viewer and driver: every event is a track.* one, equal to the link\'s own GET /api/track right after it; the viewer hears no private field', async () => {
    const viewer = { ...(await listen({ trackToken: tokens.viewer })), token: tokens.viewer };
    const driver = { ...(await listen({ driverToken: tokens.driver })), token: tokens.driver };
    const both = [viewer, driver];

    // The patient shares a rough fix far from home: the intake stays the best known location, the board flags the mismatch.
    await step('a rough share', both, 1, async () => expectStatus(await shareLocation(s, caseId, { ...FAR, accuracy: 800 }), 200, 'share'));
    await step('a position (REST)', both, 1, async () => expectStatus(await s.api('POST', `/api/ambulances/${AMBULANCE}/position`, {
      token: operator, body: { latitude: 17.37, longitude: 78.46, timestamp: Date.now() },
    }), 200, 'position'));
    await step('a position (driver socket)', both, 1, async () => expect(await driver.sock.timeout(2000).emitWithAck('ambulance.position', {
      latitude: 17.371, longitude: 78.461, accuracy: 6, heading: 45, speed: 11, battery: 0.8, timestamp: Date.now() + 1,
    })).toEqual({ ok: true, latest: true }));
    await step('the intake location edited', both, 1, async () => expectStatus(await updateCase(s, operator, caseId, { intake_location: NEW_HOME }), 200, 'edit'));
    await step('an accurate share', both, 1, async () => expectStatus(await shareLocation(s, caseId, { ...FAR, accuracy: 12 }), 200, 'share'));
    await step('the words and priority edited', both, 1, async () => expectStatus(await updateCase(s, operator, caseId, { description: 'Fall, hip pain, conscious', priority: 1 }), 200, 'edit'));
    await step('en route (driver socket)', both, 1, async () => expect(await driver.sock.timeout(2000).emitWithAck('unit.status', { status: 'en_route' })).toMatchObject({ ok: true }));
    for (const status of ['on_scene', 'transporting', 'at_hospital']) {
      await step(status, both, 1, async () => expectStatus(await s.api('POST', `/api/ambulances/${AMBULANCE}/unit-status`, { token: operator, body: { status } }), 200, status));
    }
    // The dispatch time moved to another recorded instant (the call's, else en route's): a real change, whatever the machine's speed.
    const { assignment } = await track(tokens.driver);
    const { call_received_at: received } = expectStatus(await s.api('GET', `/api/cases/${caseId}`, { token: operator }), 200, 'case').body.case;
    const dispatchedAt = assignment.dispatched_at === received ? assignment.en_route_at : received;
    await step('a corrected time', both, 1, async () => expectStatus(await s.api('POST', `/api/cases/${caseId}/assignments/${assignment.id}/corrections`, {
      token: operator, body: { step: 'dispatched', at: dispatchedAt, reason: 'entered late' },
    }), 200, 'correction'));

    // The end: the link answers 404 from now on, so its last event is held against the last answer, the call ended.
    const last = await track(tokens.viewer);
    const from = viewer.heard.length;
    expectStatus(await s.api('POST', `/api/ambulances/${AMBULANCE}/unit-status`, { token: operator, body: { status: 'cleared' } }), 200, 'cleared');
    await waitFor(() => viewer.sock.disconnected, 'the viewer disconnected at the end');
    expect(viewer.heard.slice(from)).toEqual([
      { event: 'track.case', payload: { ...pick(last, ['ambulanceId', 'patient', 'destination']), case: { ...last.case, status: 'resolved' }, unit_status: 'cleared' } },
    ]);

    // Nothing private ever reached the viewer: not the place text, the board's flag, the case's other fields, or anyone's e-mail.
    const all = JSON.stringify(viewer.heard);
    for (const secret of [HOME.address, NEW_HOME.address, PATIENT.email, '@', 'intake_location', 'patient_location', 'location_mismatch_m', 'location_source', 'battery', 'heading', 'assignment', 'priority']) {
      expect(all, secret).not.toContain(secret);
    }
    expect(new Set(viewer.heard.map((h) => h.event))).toEqual(new Set(['track.case', 'track.position']));
  });
});
