import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  HOSPITAL_PAGE_KEEP_MS, type HospitalDto, type HospitalPageDto, type HospitalSuggestion, type PrealertDto,
} from '../../contract';
import { checkInvariants } from '../../reliability/invariants';
import { destinationService } from '../../services/destinationService';
import { HOSPITAL_VIEW_EVERY_MS } from '../../services/hospitalService';
import { dbSnapshot, expectError, expectNoWrite } from '../../testing/assertions';
import { ISO_TIME, caseEvents, dispatchCase, expectStatus, plateOf, sha256Hex, trackingTokens, updateCase } from '../../testing/dispatchHelpers';
import { collect, nextEvent, roundTrip, signedInStaff, useTestServer } from '../../testing/testServer';
import { sleep, waitFor } from '../../testing/wait';

/**
 * The hospital end of a call (issue 30): hospitals and who may manage them, a hospital's page
 * link and what it may reach, a unit's destination (staff and crew), the hospitals suggested for
 * a conveyance, the ATMIST pre-alert and its acknowledgement (and the alert when nobody
 * acknowledges it), the handover step (eTimes.12) pressed by the crew or the hospital, and
 * the hospital's page: its own units only, no patient's name, contact or address, nothing an
 * hour after the handover, every read audited. Every test ends with the invariants checked.
 */
const LIMITS = { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' };
const LINK_NOT_FOUND = 'Hospital link not found or replaced';
const NOT_COMING_HERE = 'This unit is not coming to this hospital';
const NOT_YOUR_UNIT = 'This link is not valid for sending positions';
const NO_TOKEN = 'Authentication required';
const BAD_TOKEN = 'Your session has expired or was revoked; please sign in again';

const s = useTestServer({ env: LIMITS });
const staff = signedInStaff(s);

afterEach(async () => {
  for (const c of await s.ctx.db('cases').whereIn('status', ['active', 'pending'])) expectStatus(await updateCase(s, staff.operator, c.id, { status: 'closed' }), 200, 'close');
  expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
});

/** Around a point far from the demo centre (Hyderabad), so that the demo's own hospitals, if any, rank apart. */
const HERE = { latitude: 51.5, longitude: -0.12 };
/** `km` kilometres north of HERE. */
const north = (km: number) => ({ latitude: HERE.latitude + km / 111.2, longitude: HERE.longitude });

let named = 0;
async function addHospital(extra: Partial<HospitalDto> & Record<string, unknown> = {}): Promise<HospitalDto> {
  named += 1;
  const body = { name: `Test Hospital ${named}`, address: `${named} Hospital Road`, ...north(2), capabilities: ['stroke'], ...extra };
  return expectStatus(await s.api('POST', '/api/hospitals', { token: staff.admin, body }), 201, 'add hospital').body.hospital;
}
/** A new page link of the hospital: its token. */
async function linkOf(id: number): Promise<string> {
  const { link } = expectStatus(await s.api('POST', `/api/hospitals/${id}/link`, { token: staff.admin }), 200, 'link').body as { link: string };
  return new URL(link).searchParams.get('t')!;
}
const page = (id: number, t: string) => s.api<HospitalPageDto>('GET', `/api/hospital/${id}?t=${encodeURIComponent(t)}`);
const pageOf = async (id: number, t: string) => expectStatus(await page(id, t), 200, 'page').body;
const assignmentOf = async (caseId: string, ambulanceId: number): Promise<number> =>
  (await s.ctx.db('assignments').where({ case_id: caseId, ambulance_id: ambulanceId }).first()).id;
/** Staff (bearer) by default; `t` sends a link's token instead. */
const via = (o: { t?: string; token?: string }) => ({ token: o.t ? undefined : (o.token ?? staff.operator), suffix: o.t ? `?t=${encodeURIComponent(o.t)}` : '' });
function setDestination(caseId: string, assignmentId: number, body: unknown, o: { t?: string; token?: string } = {}) {
  const { token, suffix } = via(o);
  return s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/destination${suffix}`, { token, body });
}
function sendPrealert(caseId: string, assignmentId: number, body: unknown, o: { t?: string; token?: string } = {}) {
  const { token, suffix } = via(o);
  return s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/prealert${suffix}`, { token, body });
}
const press = (ambulanceId: number, status: string, o: { t?: string; token?: string } = {}) => {
  const { token, suffix } = via(o);
  return s.api('POST', `/api/ambulances/${ambulanceId}/unit-status${suffix}`, { token, body: { status } });
};
const ack = (hospitalId: number, prealertId: number, t: string) => s.api('POST', `/api/hospital/${hospitalId}/prealerts/${prealertId}/ack?t=${encodeURIComponent(t)}`);
const handover = (hospitalId: number, assignmentId: number, t: string) => s.api('POST', `/api/hospital/${hospitalId}/handover/${assignmentId}?t=${encodeURIComponent(t)}`);
const getCase = async (id: string) => expectStatus(await s.api('GET', `/api/cases/${id}`, { token: staff.operator }), 200, 'case').body.case;

const ATMIST = {
  age: 67, sex: 'male', time_of_incident: '2026-12-07T09:40:00+05:30', mechanism: 'Collapsed at home', injuries: 'Left-sided weakness, facial droop',
  signs: { hr: 112, sbp: 182, rr: 20, spo2: 95, gcs: 13, temp: 36.8 }, treatment: 'Oxygen, glucose checked', requirements: 'Stroke team, CT', activation: 'stroke',
};

/** A call on `ambulanceId` conveyed to `hospitalId`: its case and assignment ids. */
async function conveyed(ambulanceId: number, hospitalId: number, extra: Record<string, unknown> = {}) {
  const caseId = await dispatchCase(s, staff.operator, ambulanceId, extra);
  const assignmentId = await assignmentOf(caseId, ambulanceId);
  expectStatus(await setDestination(caseId, assignmentId, { hospital_id: hospitalId, reason: 'closest' }), 200, 'destination');
  return { caseId, assignmentId };
}

/** A new ambulance of the test's own (no earlier calls: its times may be moved back freely). */
let plates = 0;
async function newAmbulance(): Promise<number> {
  plates += 1;
  return expectStatus(await s.api('POST', '/api/ambulances', { token: staff.admin, body: { license_plate: `TS09 HO ${1000 + plates}`, status: 'available' } }), 201, 'ambulance').body.ambulance.id;
}

describe('hospitals: who may read and manage them', () => {
  it('an admin adds one (201 {hospital}); staff list it; its capabilities come back in the contract order', async () => {
    const res = await s.api('POST', '/api/hospitals', {
      token: staff.admin, body: { name: 'Royal General', address: '1 Station Road', ...north(1), capabilities: ['trauma', 'stroke', 'stroke'] },
    });
    expect(res.status).toBe(201);
    const h = res.body.hospital as HospitalDto;
    expect(h).toEqual({
      id: expect.any(Number), name: 'Royal General', address: '1 Station Road', ...north(1), capabilities: ['stroke', 'trauma'], status: 'open',
      status_reason: null, status_updated_at: expect.stringMatching(ISO_TIME), status_updated_by: 'Admin', has_link: false,
    });
    for (const token of [staff.operator, staff.admin]) {
      const list = expectStatus(await s.api('GET', '/api/hospitals', { token }), 200, 'list').body.hospitals as HospitalDto[];
      expect(list.find((x) => x.id === h.id)).toEqual(h);
    }
  });

  it('an operator may read but not add, edit, delete or link: 403 with the reason, nothing written; no session: 401', async () => {
    const h = await addHospital();
    const refusals: [string, string, unknown, string][] = [
      ['POST', '/api/hospitals', { name: 'X', ...HERE }, 'Only admins can add, edit or delete hospitals'],
      ['PUT', `/api/hospitals/${h.id}`, { name: 'Renamed' }, 'Only admins can add, edit or delete hospitals'],
      ['DELETE', `/api/hospitals/${h.id}`, undefined, 'Only admins can add, edit or delete hospitals'],
      ['POST', `/api/hospitals/${h.id}/link`, undefined, "Only admins can make a hospital's link"],
    ];
    for (const [method, path, body, error] of refusals) {
      expectError(await expectNoWrite(s.ctx.db, () => s.api(method, path, { token: staff.operator, body })), 403, error);
      expectError(await expectNoWrite(s.ctx.db, () => s.api(method, path, { body })), 401, NO_TOKEN);
    }
    expectError(await s.api('GET', '/api/hospitals'), 401, NO_TOKEN);
    expectError(await s.api('GET', '/api/hospitals/suggestions?latitude=51.5&longitude=-0.12'), 401, NO_TOKEN);
  });

  it.each([
    ['no name', { ...HERE }, /^name: /],
    ['a blank name', { name: '  ', ...HERE }, 'name: required'],
    ['a name over two lines', { name: 'Royal\nGeneral', ...HERE }, /^name: /],
    ['no position', { name: 'Nowhere' }, /^latitude: /],
    ['a latitude out of range', { name: 'Pole', latitude: 91, longitude: 0 }, /^latitude: /],
    ['an unknown capability', { name: 'X', ...HERE, capabilities: ['xray'] }, /^capabilities\.0: each must be one of stroke, pci, trauma, paediatrics, maternity, burns$/],
    ['an unknown status', { name: 'X', ...HERE, status: 'closed' }, 'status: must be open or diversion'],
  ])('POST with %s: 400, nothing written', async (_what, body, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/hospitals', { token: staff.admin, body })), 400, error);
  });

  it('an admin edits one: fields change; a status change says who and when; reopening clears the reason', async () => {
    const h = await addHospital();
    await sleep(5);
    const edited = expectStatus(await s.api('PUT', `/api/hospitals/${h.id}`, { token: staff.admin, body: { name: 'St Mary', capabilities: ['pci', 'burns'] } }), 200, 'edit').body.hospital;
    expect(edited).toMatchObject({ id: h.id, name: 'St Mary', capabilities: ['pci', 'burns'], status: 'open', status_updated_at: h.status_updated_at });
    const diverting = expectStatus(await s.api('PUT', `/api/hospitals/${h.id}`, { token: staff.admin, body: { status: 'diversion', status_reason: 'ED full' } }), 200, 'divert').body.hospital;
    expect(diverting).toMatchObject({ status: 'diversion', status_reason: 'ED full', status_updated_by: 'Admin' });
    expect(diverting.status_updated_at > h.status_updated_at).toBe(true);
    const reopened = expectStatus(await s.api('PUT', `/api/hospitals/${h.id}`, { token: staff.admin, body: { status: 'open' } }), 200, 'reopen').body.hospital;
    expect(reopened).toMatchObject({ status: 'open', status_reason: null });
  });

  it.each([
    ['nothing to update', {}, 'nothing to update'],
    ['a latitude without its longitude', { latitude: 51.4 }, 'latitude: latitude and longitude go together'],
    ['a blank name', { name: '' }, 'name: required'],
  ])('PUT with %s: 400, nothing written', async (_what, body, error) => {
    const h = await addHospital();
    expectError(await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/hospitals/${h.id}`, { token: staff.admin, body })), 400, error);
  });

  it('404 for an unknown hospital on PUT, DELETE and link, nothing written', async () => {
    for (const [method, path, body] of [['PUT', '/api/hospitals/999999', { name: 'X' }], ['DELETE', '/api/hospitals/999999', undefined], ['POST', '/api/hospitals/999999/link', undefined], ['PUT', '/api/hospitals/abc', { name: 'X' }]] as const) {
      expectError(await expectNoWrite(s.ctx.db, () => s.api(method, path, { token: staff.admin, body })), 404, 'Hospital not found');
    }
  });

  it('a retry with the same Idempotency-Key adds the hospital once', async () => {
    const headers = { 'idempotency-key': 'hospital-once' };
    const body = { name: 'Keyed Hospital', ...HERE };
    const [first, again] = [await s.api('POST', '/api/hospitals', { token: staff.admin, body, headers }), await s.api('POST', '/api/hospitals', { token: staff.admin, body, headers })];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await s.ctx.db('hospitals').where({ name: 'Keyed Hospital' })).toHaveLength(1);
  });

  it('deleting a hospital keeps the calls conveyed there: the destination keeps its name, its id goes', async () => {
    const h = await addHospital({ name: 'Closing Down Hospital' });
    const { caseId, assignmentId } = await conveyed(1, h.id);
    const staffSocket = await s.socket({ token: staff.operator });
    const heard = nextEvent(staffSocket, 'hospital.deleted');
    expect(expectStatus(await s.api('DELETE', `/api/hospitals/${h.id}`, { token: staff.admin }), 200, 'delete').body).toEqual({ success: true, id: h.id });
    expect(await heard).toEqual({ id: h.id });
    const a = (await getCase(caseId)).assignments.find((x: { id: number }) => x.id === assignmentId);
    expect(a.destination).toEqual({ hospital_id: null, name: 'Closing Down Hospital', reason: 'closest', set_at: expect.stringMatching(ISO_TIME) });
    staffSocket.disconnect();
  });
});

describe("a hospital's link", () => {
  it('is answered once, only its hash is stored, and has_link says one exists', async () => {
    const h = await addHospital();
    const res = expectStatus(await s.api('POST', `/api/hospitals/${h.id}/link`, { token: staff.admin }), 200, 'link');
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.body.link).toMatch(new RegExp(`^http://lifeline\\.test/hospital/${h.id}\\?t=[A-Za-z0-9_-]{20,}$`));
    const token = new URL(res.body.link).searchParams.get('t')!;
    const row = await s.ctx.db('hospitals').where({ id: h.id }).first();
    expect(row.link_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(await dbSnapshot(s.ctx.db))).not.toContain(token);
    const listed = (await s.api('GET', '/api/hospitals', { token: staff.admin })).body.hospitals.find((x: HospitalDto) => x.id === h.id);
    expect(listed).toMatchObject({ has_link: true });
    expect(JSON.stringify(listed)).not.toContain(token);
    expect((await pageOf(h.id, token)).hospital).toMatchObject({ id: h.id, name: h.name });
  });

  it("a new link revokes the old: the old one gets the one 404 every bad link gets, and its open page's socket is dropped", async () => {
    const h = await addHospital();
    const old = await linkOf(h.id);
    const sock = await s.socket({ hospitalId: h.id, hospitalToken: old });
    const dropped = new Promise<void>((resolve) => sock.once('disconnect', () => resolve()));
    const fresh = await linkOf(h.id);
    expect(fresh).not.toBe(old);
    await dropped;
    expectError(await expectNoWrite(s.ctx.db, () => page(h.id, old)), 404, LINK_NOT_FOUND);
    expect((await page(h.id, fresh)).status).toBe(200);
    const err = await s.socket({ hospitalId: h.id, hospitalToken: old }).then(() => undefined, (e: Error) => e);
    expect(err?.message).toBe('unauthorized');
  });

  it('every bad link is the same 404: wrong token, no token, an unknown or non-numeric hospital, another kind of link', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const caseId = await dispatchCase(s, staff.operator, 2);
    const { viewer, driver } = await trackingTokens(s, staff.operator, caseId, 2);
    for (const path of [`/api/hospital/${h.id}?t=${t}x`, `/api/hospital/${h.id}`, `/api/hospital/999999?t=${t}`, `/api/hospital/x?t=${t}`,
      `/api/hospital/${h.id}?t=${viewer}`, `/api/hospital/${h.id}?t=${driver}`]) {
      expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', path)), 404, LINK_NOT_FOUND);
    }
    // A staff session is no hospital link either.
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/hospital/${h.id}`, { token: staff.admin })), 404, LINK_NOT_FOUND);
  });
});

describe('link scope: a hospital link reaches its own hospital only', () => {
  it("cannot read another hospital's page, acknowledge its pre-alerts or press handover for its units", async () => {
    const [a, b] = [await addHospital(), await addHospital()];
    const [ta, tb] = [await linkOf(a.id), await linkOf(b.id)];
    const toB = await conveyed(3, b.id);
    const sent = expectStatus(await sendPrealert(toB.caseId, toB.assignmentId, ATMIST), 201, 'prealert').body.prealert as PrealertDto;
    expectStatus(await press(3, 'at_hospital'), 200, 'arrived');

    expectError(await expectNoWrite(s.ctx.db, () => page(b.id, ta)), 404, LINK_NOT_FOUND);
    // Its own page does not list B's unit.
    const own = await pageOf(a.id, ta);
    expect([...own.inbound, ...own.arrived].map((u) => u.assignment_id)).not.toContain(toB.assignmentId);
    // B's pre-alert, through A's own path or through B's.
    expectError(await expectNoWrite(s.ctx.db, () => ack(a.id, sent.id, ta)), 404, 'Pre-alert not found');
    expectError(await expectNoWrite(s.ctx.db, () => ack(b.id, sent.id, ta)), 404, LINK_NOT_FOUND);
    // B's unit's handover, through A's own path or through B's.
    expectError(await expectNoWrite(s.ctx.db, () => handover(a.id, toB.assignmentId, ta)), 403, NOT_COMING_HERE);
    expectError(await expectNoWrite(s.ctx.db, () => handover(b.id, toB.assignmentId, ta)), 404, LINK_NOT_FOUND);
    expectError(await expectNoWrite(s.ctx.db, () => handover(a.id, 999999, ta)), 403, NOT_COMING_HERE);
    // B's status.
    expectError(await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/hospital/${b.id}/status?t=${ta}`, { body: { status: 'diversion', status_reason: 'full' } })), 404, LINK_NOT_FOUND);
    // B itself still can.
    expect((await ack(b.id, sent.id, tb)).status).toBe(200);
    expect((await handover(b.id, toB.assignmentId, tb)).status).toBe(200);
  });

  it('gets nothing from staff routes (401) or other links (their own refusals)', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const { caseId, assignmentId } = await conveyed(4, h.id);
    for (const path of ['/api/cases', `/api/cases/${caseId}`, '/api/ambulances', '/api/hospitals', `/api/cases/${caseId}/timeline`]) {
      expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `${path}${path.includes('?') ? '&' : '?'}t=${t}`)), 401, NO_TOKEN);
      expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', path, { token: t })), 401, BAD_TOKEN);
    }
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/hospitals/${h.id}/link?t=${t}`)), 401, NO_TOKEN);
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/track/4?t=${t}`)), 404, 'Tracking link not found or expired');
    // The crew's routes: its link is no driver link.
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(caseId, assignmentId, { hospital_id: h.id, reason: 'closest' }, { t })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => sendPrealert(caseId, assignmentId, ATMIST, { t })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => press(4, 'on_scene', { t })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/hospitals/suggestions?latitude=51.5&longitude=-0.12&t=${t}`)), 403, NOT_YOUR_UNIT);
    // Its socket is a hospital page's: it may send nothing.
    const sock = await s.socket({ hospitalId: h.id, hospitalToken: t });
    expect(await expectNoWrite(s.ctx.db, () => sock.timeout(2000).emitWithAck('unit.status', { status: 'on_scene' }))).toMatchObject({ ok: false });
    expect(await expectNoWrite(s.ctx.db, () => sock.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.4, longitude: 78.4 }))).toMatchObject({ ok: false });
    sock.disconnect();
  });

  it("a hospital's socket hears its own hospital's changes only", async () => {
    const [a, b] = [await addHospital(), await addHospital()];
    const [sa, sb] = [await s.socket({ hospitalId: a.id, hospitalToken: await linkOf(a.id) }), await s.socket({ hospitalId: b.id, hospitalToken: await linkOf(b.id) })];
    const heardA = collect(sa, 'hospital.changed');
    const heardB = collect(sb, 'hospital.changed');
    await conveyed(5, a.id);
    expectStatus(await press(5, 'transporting'), 200, 'conveying');
    await waitFor(() => heardA.seen.length >= 2, 'A hears its unit');
    await roundTrip(sb);
    expect(heardB.seen).toEqual([]);
    expect(heardA.seen.every((e) => e.hospital_id === a.id)).toBe(true);
    // Nothing of the call itself reaches it: no case, no track events.
    const other = collect(sa, 'case.updated');
    expectStatus(await press(5, 'at_hospital'), 200, 'arrived');
    await roundTrip(sa);
    expect(other.seen).toEqual([]);
    sa.disconnect();
    sb.disconnect();
  });
});

describe("the hospital's page", () => {
  const INTAKE = { latitude: 17.3615636, longitude: 78.4746645, address: '12 Secret Lane, Charminar, Hyderabad', source: 'address' };

  it('shows its inbound and arrived units with their pre-alert and ETA, and no patient name, contact or address', async () => {
    const h = await addHospital({ ...north(1) });
    const t = await linkOf(h.id);
    const inbound = await conveyed(6, h.id, { patientName: 'Asha Secretname', to: 'asha.secret@example.com', intake_location: INTAKE });
    expectStatus(await sendPrealert(inbound.caseId, inbound.assignmentId, ATMIST), 201, 'prealert');
    expectStatus(await press(6, 'transporting'), 200, 'conveying');
    expectStatus(await s.api('POST', '/api/ambulances/6/position', { token: staff.operator, body: { ...north(6) } }), 200, 'position');
    const arrived = await conveyed(7, h.id, { patientName: 'Ben Hiddenname', to: 'ben.hidden@example.com' });
    expectStatus(await press(7, 'at_hospital'), 200, 'arrived');

    const res = await page(h.id, t);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const body = res.body;
    expect(body.hospital).toEqual({
      id: h.id, name: h.name, address: h.address, capabilities: h.capabilities, status: 'open', status_reason: null, status_updated_at: h.status_updated_at, status_updated_by: 'Admin',
    });
    expect(body.server_time).toMatch(ISO_TIME);
    expect(body.inbound).toEqual([{
      assignment_id: inbound.assignmentId, call_ref: inbound.caseId.slice(0, 8), priority: expect.any(Number), license_plate: plateOf(6), capability: expect.any(String),
      status: 'transporting', transporting_at: expect.stringMatching(ISO_TIME), at_hospital_at: null, handover_at: null,
      eta_s: expect.any(Number), position_at: expect.stringMatching(ISO_TIME),
      prealert: expect.objectContaining({ age: 67, sex: 'male', activation: 'stroke', mechanism: 'Collapsed at home', acknowledged_at: null, redacted: false }),
    }]);
    // About 5 km away: minutes, not seconds or hours.
    expect(body.inbound[0].eta_s).toBeGreaterThan(120);
    expect(body.inbound[0].eta_s).toBeLessThan(1800);
    expect(body.arrived).toEqual([expect.objectContaining({
      assignment_id: arrived.assignmentId, call_ref: arrived.caseId.slice(0, 8), status: 'at_hospital', at_hospital_at: expect.stringMatching(ISO_TIME), handover_at: null, eta_s: null, prealert: null,
    })]);
    const text = JSON.stringify(body);
    for (const secret of ['Asha', 'Secretname', 'asha.secret', 'Secret Lane', 'Ben Hiddenname', 'ben.hidden', 'example.com', inbound.caseId, arrived.caseId, '17.36156']) {
      expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    }
  });

  it('lists a call conveyed elsewhere nowhere, a stood-down or closed-before-arrival unit nowhere', async () => {
    const [h, other] = [await addHospital(), await addHospital()];
    const t = await linkOf(h.id);
    const away = await conveyed(1, other.id);
    const cancelled = await conveyed(2, h.id);
    expectStatus(await updateCase(s, staff.operator, cancelled.caseId, { status: 'closed' }), 200, 'closed before arrival');
    const p = await pageOf(h.id, t);
    expect([...p.inbound, ...p.arrived].map((u) => u.assignment_id)).toEqual([]);
    expect(away).toBeDefined();
  });

  it(`drops a call ${HOSPITAL_PAGE_KEEP_MS / 60_000} minutes after its handover, even while the crew has not cleared or cleared later`, async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const [u1, u2, u3, u4] = [await newAmbulance(), await newAmbulance(), await newAmbulance(), await newAmbulance()];
    const stillThere = await conveyed(u1, h.id); // handed over 70 min ago, crew still at handover
    const clearedLater = await conveyed(u2, h.id); // handed over 70 min ago, cleared 40 min ago
    const recent = await conveyed(u3, h.id); // handed over 50 min ago, cleared 40 min ago
    const noHandover = await conveyed(u4, h.id); // at hospital, then cleared 50 min ago without a handover
    for (const u of [u1, u2, u3]) {
      expectStatus(await press(u, 'at_hospital'), 200, 'arrived');
      expectStatus(await press(u, 'handover'), 200, 'handover');
    }
    expectStatus(await press(u4, 'at_hospital'), 200, 'arrived');
    for (const u of [u2, u3, u4]) expectStatus(await press(u, 'cleared'), 200, 'cleared');
    const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    /** The assignment's steps moved back: dispatched 90 min ago, and so on up to its handover and clear. */
    const moveBack = (id: number, handoverMin: number | null, clearedMin: number | null) => s.ctx.db('assignments').where({ id }).update({
      dispatched_at: ago(90), at_hospital_at: ago(80), ...(handoverMin == null ? {} : { handover_at: ago(handoverMin) }), ...(clearedMin == null ? {} : { cleared_at: ago(clearedMin) }),
    });
    await moveBack(stillThere.assignmentId, 70, null);
    await moveBack(clearedLater.assignmentId, 70, 40);
    await moveBack(recent.assignmentId, 50, 40);
    await moveBack(noHandover.assignmentId, null, 50);
    const p = await pageOf(h.id, t);
    expect(p.inbound).toEqual([]);
    expect(p.arrived.map((u) => [u.assignment_id, u.status])).toEqual([[recent.assignmentId, 'cleared'], [noHandover.assignmentId, 'cleared']]);
  });

  it('a handover pressed without an arrival still lists the unit as arrived until the hour is up', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const { assignmentId } = await conveyed(8, h.id);
    expectStatus(await press(8, 'transporting'), 200, 'conveying');
    expectStatus(await press(8, 'handover'), 200, 'handover, arrival skipped');
    expectStatus(await press(8, 'cleared'), 200, 'cleared');
    expect((await pageOf(h.id, t)).arrived.map((u) => [u.assignment_id, u.status, u.at_hospital_at])).toEqual([[assignmentId, 'cleared', null]]);
  });

  it("every read is on each shown call's timeline as 'hospital.viewed' by the hospital, at most once per call every 10 minutes", async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const one = await conveyed(1, h.id);
    const two = await conveyed(2, h.id);
    const views = async (caseId: string) => (await caseEvents(s, caseId)).filter((e) => e.action === 'hospital.viewed');
    await pageOf(h.id, t);
    for (const c of [one, two]) expect((await views(c.caseId)).map((e) => [e.actor_type, e.actor_id])).toEqual([['hospital', h.id]]);
    await pageOf(h.id, t);
    for (const c of [one, two]) expect(await views(c.caseId)).toHaveLength(1);
    // As if the first read had been longer ago.
    const [first] = await views(one.caseId);
    await s.ctx.db('case_events').where({ id: first.id }).update({ created_at: new Date(Date.now() - HOSPITAL_VIEW_EVERY_MS - 1000).toISOString() });
    await pageOf(h.id, t);
    expect(await views(one.caseId)).toHaveLength(2);
    expect(await views(two.caseId)).toHaveLength(1);
    // An admin reads them on the timeline.
    const timeline = expectStatus(await s.api('GET', `/api/cases/${two.caseId}/timeline`, { token: staff.admin }), 200, 'timeline').body.timeline;
    expect(timeline.filter((e: { action: string }) => e.action === 'hospital.viewed')).toEqual([expect.objectContaining({ actor_type: 'hospital', actor_id: h.id })]);
    // A bad link reads nothing and records nothing.
    expectError(await expectNoWrite(s.ctx.db, () => page(h.id, `${t}x`)), 404, LINK_NOT_FOUND);
  });

  it('the hospital sets its own diversion status (a diversion needs a reason); staff hear it', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const path = `/api/hospital/${h.id}/status?t=${t}`;
    expectError(await expectNoWrite(s.ctx.db, () => s.api('PUT', path, { body: { status: 'diversion' } })), 400, 'status_reason: required: say why the hospital is on diversion');
    expectError(await expectNoWrite(s.ctx.db, () => s.api('PUT', path, { body: { status: 'shut' } })), 400, 'status: must be open or diversion');
    const staffSocket = await s.socket({ token: staff.operator });
    const heard = nextEvent<HospitalDto>(staffSocket, 'hospital.updated', 2000, (x) => x.id === h.id);
    const res = expectStatus(await s.api('PUT', path, { body: { status: 'diversion', status_reason: 'CT scanner down' } }), 200, 'divert').body.hospital;
    expect(res).toMatchObject({ id: h.id, status: 'diversion', status_reason: 'CT scanner down', status_updated_by: 'Hospital' });
    expect(await heard).toMatchObject({ id: h.id, status: 'diversion' });
    expect((await pageOf(h.id, t)).hospital).toMatchObject({ status: 'diversion', status_reason: 'CT scanner down' });
    expect(expectStatus(await s.api('PUT', path, { body: { status: 'open' } }), 200, 'reopen').body.hospital).toMatchObject({ status: 'open', status_reason: null });
    staffSocket.disconnect();
  });
});

describe("a unit's destination", () => {
  it('staff set it: the assignment carries it, the timeline records it, and it may change', async () => {
    const [h, other] = [await addHospital({ name: 'First Choice' }), await addHospital({ name: 'Second Choice' })];
    const caseId = await dispatchCase(s, staff.operator, 1);
    const assignmentId = await assignmentOf(caseId, 1);
    const res = expectStatus(await setDestination(caseId, assignmentId, { hospital_id: h.id, reason: 'specialty' }), 200, 'destination');
    const destination = { hospital_id: h.id, name: 'First Choice', reason: 'specialty', set_at: expect.stringMatching(ISO_TIME) };
    expect(res.body).toEqual({ assignment: expect.objectContaining({ id: assignmentId, destination, destination_eta_s: null }), destination });
    expect((await getCase(caseId)).assignments[0]).toMatchObject({ id: assignmentId, destination });
    // Changed on the way (the first hospital's page hears it no longer is).
    const first = await s.socket({ hospitalId: h.id, hospitalToken: await linkOf(h.id) });
    const told = nextEvent(first, 'hospital.changed');
    expectStatus(await setDestination(caseId, assignmentId, { hospital_id: other.id, reason: 'diversion' }), 200, 'diverted');
    expect(await told).toEqual({ hospital_id: h.id });
    const entries = (await caseEvents(s, caseId)).filter((e) => e.action === 'destination.set');
    expect(entries.map((e) => [e.actor_type, JSON.parse(e.before ?? 'null')?.hospital ?? null, JSON.parse(e.after).hospital, JSON.parse(e.after).reason])).toEqual([
      ['user', null, 'First Choice', 'specialty'], ['user', 'First Choice', 'Second Choice', 'diversion'],
    ]);
    first.disconnect();
  });

  it("the unit's driver link sets it; another unit's driver link or a viewer link is refused 403, nothing written", async () => {
    const h = await addHospital();
    const mine = await dispatchCase(s, staff.operator, 2);
    const theirs = await dispatchCase(s, staff.operator, 3);
    const [mineA, theirsA] = [await assignmentOf(mine, 2), await assignmentOf(theirs, 3)];
    const { driver, viewer } = await trackingTokens(s, staff.operator, mine, 2);
    const body = { hospital_id: h.id, reason: 'patient_choice' };
    const res = expectStatus(await setDestination(mine, mineA, body, { t: driver }), 200, 'crew destination');
    expect(res.body.destination).toMatchObject({ hospital_id: h.id, reason: 'patient_choice' });
    expect((await caseEvents(s, mine)).filter((e) => e.action === 'destination.set').map((e) => e.actor_type)).toEqual(['driver']);
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(theirs, theirsA, body, { t: driver })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(mine, theirsA, body, { t: driver })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(mine, mineA, body, { t: viewer })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(mine, mineA, body, { t: 'not-a-token' })), 403, NOT_YOUR_UNIT);
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/cases/${mine}/assignments/${mineA}/destination`, { body })), 401, NO_TOKEN);
    // A second unit on the same call: the first unit's crew may not set it.
    const second = expectStatus(await s.api('POST', `/api/cases/${mine}/assignments`, { token: staff.operator, body: { ambulance_id: 4 } }), 201, 'second unit').body.assignment.id;
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(mine, second, body, { t: driver })), 403, NOT_YOUR_UNIT);
  });

  it('422 for an unknown hospital, 400 for a bad body, 404 for an assignment of another call, 409 once the unit is off the call', async () => {
    const caseId = await dispatchCase(s, staff.operator, 5);
    const other = await dispatchCase(s, staff.operator, 6);
    const assignmentId = await assignmentOf(caseId, 5);
    const h = await addHospital();
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(caseId, assignmentId, { hospital_id: 999999, reason: 'closest' })), 422, 'hospital_id: no such hospital');
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(caseId, assignmentId, { hospital_id: h.id, reason: 'nearest' })), 400,
      'reason: must be one of closest, specialty, protocol, patient_choice, diversion, other');
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(caseId, assignmentId, { reason: 'closest' })), 400, 'hospital_id: must be a hospital id');
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(other, assignmentId, { hospital_id: h.id, reason: 'closest' })), 404, 'Assignment not found');
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(caseId, 999999, { hospital_id: h.id, reason: 'closest' })), 404, 'Assignment not found');
    expectStatus(await press(5, 'cleared'), 200, 'cleared');
    expectError(await expectNoWrite(s.ctx.db, () => setDestination(caseId, assignmentId, { hospital_id: h.id, reason: 'closest' })), 409, `${plateOf(5)} is cleared: its part in this call is over`);
  });

  it('while transporting, the assignment carries its arrival estimate at the destination (null before and after)', async () => {
    const h = await addHospital({ latitude: 17.4, longitude: 78.5 });
    const { caseId } = await conveyed(7, h.id);
    expect((await getCase(caseId)).assignments[0].destination_eta_s).toBeNull();
    expectStatus(await press(7, 'transporting'), 200, 'conveying');
    expectStatus(await s.api('POST', '/api/ambulances/7/position', { token: staff.operator, body: { latitude: 17.43, longitude: 78.5 } }), 200, 'position');
    const eta = (await getCase(caseId)).assignments[0].destination_eta_s;
    expect(eta).toBeGreaterThan(60);
    expect(eta).toBeLessThan(1200);
    expectStatus(await press(7, 'at_hospital'), 200, 'arrived');
    expect((await getCase(caseId)).assignments[0].destination_eta_s).toBeNull();
  });
});

describe('GET /api/hospitals/suggestions', () => {
  let near: HospitalDto; // 1 km, stroke only
  let diverting: HospitalDto; // 0.5 km, everything, on diversion
  let far: HospitalDto; // 3 km, stroke and pci
  beforeAll(async () => {
    near = await addHospital({ ...north(1), capabilities: ['stroke'] });
    diverting = await addHospital({ ...north(0.5), capabilities: ['stroke', 'pci', 'trauma'], status: 'diversion', status_reason: 'ED full' });
    far = await addHospital({ ...north(3), capabilities: ['pci', 'stroke'] });
  });
  const suggest = async (query: string) => expectStatus(await s.api('GET', `/api/hospitals/suggestions?${query}`, { token: staff.operator }), 200, 'suggestions').body.suggestions as HospitalSuggestion[];
  const mine = (list: HospitalSuggestion[]) => list.filter((x) => [near.id, diverting.id, far.id].includes(x.hospital.id));

  it('ranks open hospitals by arrival and the diverting one after them, flagged, even though it is nearest', async () => {
    const list = await suggest(`latitude=${HERE.latitude}&longitude=${HERE.longitude}`);
    expect(list[0].diversion).toBe(false);
    expect(mine(list).map((x) => [x.hospital.id, x.diversion, x.meets_needs, x.missing])).toEqual([
      [near.id, false, true, []], [far.id, false, true, []], [diverting.id, true, true, []],
    ]);
    const [n, f] = mine(list);
    expect(n.distance_m).toBeGreaterThan(900);
    expect(n.distance_m).toBeLessThan(1100);
    expect(n.eta_s).toBeLessThan(f.eta_s);
    // Open ones all come before any diverting one.
    const firstDiverting = list.findIndex((x) => x.diversion);
    expect(list.slice(firstDiverting).every((x) => x.diversion)).toBe(true);
  });

  it('with needs: those meeting every need first, the others say what they lack; diversion still last', async () => {
    const list = await suggest(`latitude=${HERE.latitude}&longitude=${HERE.longitude}&needs=pci,stroke`);
    expect(mine(list).map((x) => [x.hospital.id, x.meets_needs, x.missing, x.diversion])).toEqual([
      [far.id, true, [], false], [near.id, false, ['pci'], false], [diverting.id, true, [], true],
    ]);
    expect(list[0].diversion).toBe(false);
  });

  it('a diverting hospital is first only when no open one exists', async () => {
    const list = await suggest(`latitude=${HERE.latitude}&longitude=${HERE.longitude}`);
    const open = list.filter((x) => !x.diversion);
    expect(open.length).toBeGreaterThan(0);
    expect(list[0].hospital.id).toBe(open[0].hospital.id);
  });

  it("the crew's driver link may ask too; a tracking link may not", async () => {
    const caseId = await dispatchCase(s, staff.operator, 8);
    const { driver, viewer } = await trackingTokens(s, staff.operator, caseId, 8);
    const query = `latitude=${HERE.latitude}&longitude=${HERE.longitude}&needs=pci`;
    const res = expectStatus(await s.api('GET', `/api/hospitals/suggestions?${query}&t=${driver}`), 200, 'crew suggestions');
    expect(mine(res.body.suggestions).map((x: HospitalSuggestion) => x.hospital.id)).toEqual([far.id, near.id, diverting.id]);
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/hospitals/suggestions?${query}&t=${viewer}`)), 403, NOT_YOUR_UNIT);
  });

  it.each([
    ['an unknown need', 'latitude=51.5&longitude=-0.12&needs=stroke,xray', 'needs: unknown need xray: one of stroke, pci, trauma, paediatrics, maternity, burns'],
    ['no latitude', 'longitude=-0.12', /^latitude: /],
    ['a latitude out of range', 'latitude=95&longitude=-0.12', /^latitude: /],
  ])('400 for %s', async (_what, query, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/hospitals/suggestions?${query}`, { token: staff.operator })), 400, error);
  });
});

describe('the pre-alert and its acknowledgement', () => {
  it('201 {prealert} to the destination; the hospital sees it; its acknowledgement keeps both times and happens once', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const { caseId, assignmentId } = await conveyed(1, h.id);
    const hospitalSocket = await s.socket({ hospitalId: h.id, hospitalToken: t });
    const changed = nextEvent(hospitalSocket, 'hospital.changed');
    const res = await sendPrealert(caseId, assignmentId, ATMIST);
    expect(res.status).toBe(201);
    const p = res.body.prealert as PrealertDto;
    expect(p).toEqual({
      id: expect.any(Number), assignment_id: assignmentId, hospital_id: h.id, age: 67, sex: 'male', time_of_incident: '2026-12-07T04:10:00.000Z',
      mechanism: 'Collapsed at home', injuries: 'Left-sided weakness, facial droop', signs: ATMIST.signs, treatment: 'Oxygen, glucose checked', requirements: 'Stroke team, CT',
      activation: 'stroke', sent_at: expect.stringMatching(ISO_TIME), acknowledged_at: null, redacted: false,
    });
    expect(await changed).toEqual({ hospital_id: h.id });
    expect((await pageOf(h.id, t)).inbound[0].prealert).toEqual(p);
    expect((await caseEvents(s, caseId)).filter((e) => e.action === 'prealert.sent').map((e) => JSON.parse(e.after))).toEqual([
      expect.objectContaining({ prealert_id: p.id, assignment_id: assignmentId, hospital_id: h.id, activation: 'stroke' }),
    ]);

    const staffSocket = await s.socket({ token: staff.operator });
    const notice = nextEvent(staffSocket, 'prealert.acknowledged');
    const acked = expectStatus(await ack(h.id, p.id, t), 200, 'ack').body.prealert as PrealertDto;
    expect(acked).toEqual({ ...p, acknowledged_at: expect.stringMatching(ISO_TIME) });
    expect(acked.acknowledged_at! >= p.sent_at).toBe(true);
    expect(await notice).toMatchObject({ prealert_id: p.id, case_id: caseId, assignment_id: assignmentId, hospital_id: h.id, hospital: h.name, acknowledged_at: acked.acknowledged_at });
    // Again: the first acknowledgement stands, nothing is written.
    const again = await expectNoWrite(s.ctx.db, () => ack(h.id, p.id, t));
    expect(again).toMatchObject({ status: 200, body: { prealert: acked } });
    expect((await caseEvents(s, caseId)).filter((e) => e.action === 'prealert.acknowledged').map((e) => [e.actor_type, e.actor_id])).toEqual([['hospital', h.id]]);
    expect((await pageOf(h.id, t)).inbound[0].prealert).toEqual(acked);
    expectError(await expectNoWrite(s.ctx.db, () => ack(h.id, 999999, t)), 404, 'Pre-alert not found');
    hospitalSocket.disconnect();
    staffSocket.disconnect();
  });

  it('409 before a destination is chosen; 400 for a bad body; nothing written', async () => {
    const caseId = await dispatchCase(s, staff.operator, 2);
    const assignmentId = await assignmentOf(caseId, 2);
    expectError(await expectNoWrite(s.ctx.db, () => sendPrealert(caseId, assignmentId, ATMIST)), 409, `Choose ${plateOf(2)}'s destination before sending a pre-alert`);
    const h = await addHospital();
    expectStatus(await setDestination(caseId, assignmentId, { hospital_id: h.id, reason: 'closest' }), 200, 'destination');
    for (const [body, error] of [
      [{ ...ATMIST, activation: 'heart' }, 'activation: must be one of none, stemi, stroke, trauma, cardiac_arrest, sepsis, other'],
      [{ ...ATMIST, signs: { ...ATMIST.signs, spo2: 140 } }, /^signs\.spo2: /],
      [{ ...ATMIST, age: -1 }, /^age: /],
      [{ ...ATMIST, sex: 'x' }, 'sex: must be female, male or unknown'],
      [{ ...ATMIST, time_of_incident: 'this morning' }, 'time_of_incident: must be an ISO date-time'],
    ] as const) {
      expectError(await expectNoWrite(s.ctx.db, () => sendPrealert(caseId, assignmentId, body)), 400, error);
    }
    // Everything may be unknown: an empty pre-alert is one.
    expect(expectStatus(await sendPrealert(caseId, assignmentId, {}), 201, 'empty prealert').body.prealert).toMatchObject({
      age: null, sex: 'unknown', activation: 'none', signs: { hr: null, sbp: null, rr: null, spo2: null, gcs: null, temp: null },
    });
  });

  it("the unit's driver link sends one; another unit's is refused 403", async () => {
    const h = await addHospital();
    const { caseId, assignmentId } = await conveyed(3, h.id);
    const otherCase = await dispatchCase(s, staff.operator, 4);
    const { driver } = await trackingTokens(s, staff.operator, caseId, 3);
    const { driver: otherDriver } = await trackingTokens(s, staff.operator, otherCase, 4);
    expect(expectStatus(await sendPrealert(caseId, assignmentId, ATMIST, { t: driver }), 201, 'crew prealert').body.prealert).toMatchObject({ hospital_id: h.id });
    expectError(await expectNoWrite(s.ctx.db, () => sendPrealert(caseId, assignmentId, ATMIST, { t: otherDriver })), 403, NOT_YOUR_UNIT);
    expect((await caseEvents(s, caseId)).filter((e) => e.action === 'prealert.sent').map((e) => e.actor_type)).toEqual(['driver']);
  });

  it('a corrected second pre-alert is the one the page shows; each is acknowledged on its own', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const { caseId, assignmentId } = await conveyed(5, h.id);
    const first = expectStatus(await sendPrealert(caseId, assignmentId, ATMIST), 201, 'first').body.prealert as PrealertDto;
    const second = expectStatus(await sendPrealert(caseId, assignmentId, { ...ATMIST, signs: { ...ATMIST.signs, gcs: 9 } }), 201, 'second').body.prealert as PrealertDto;
    expect((await pageOf(h.id, t)).inbound[0].prealert).toMatchObject({ id: second.id, signs: { gcs: 9 } });
    expect((await ack(h.id, first.id, t)).body.prealert.acknowledged_at).toMatch(ISO_TIME);
    expect((await pageOf(h.id, t)).inbound[0].prealert).toMatchObject({ id: second.id, acknowledged_at: null });
  });

  it('a late pre-alert tells nobody when a newer one replaced it or its unit is already at the hospital', async () => {
    const h = await addHospital({ name: 'Nobody To Phone' });
    const unit = await newAmbulance();
    const { caseId, assignmentId } = await conveyed(unit, h.id);
    const replaced = expectStatus(await sendPrealert(caseId, assignmentId, ATMIST), 201, 'replaced').body.prealert as PrealertDto;
    const later = { ...s.ctx, clock: { now: () => Date.now() + (s.ctx.config.prealertAckAfterS + 5) * 1000, after: s.ctx.clock?.after ?? (() => () => undefined) } };
    const current = expectStatus(await sendPrealert(caseId, assignmentId, ATMIST), 201, 'current').body.prealert as PrealertDto;
    expectStatus(await s.api('POST', `/api/ambulances/${unit}/unit-status`, { token: staff.operator, body: { status: 'at_hospital' } }), 200, 'arrived');
    expect(await destinationService.sweepLateAcks(later)).toBe(0);
    expect((await caseEvents(s, caseId)).filter((e) => e.action === 'prealert.late')).toEqual([]);
    // Both are settled: a later sweep reads them no more.
    for (const p of [replaced, current]) expect((await s.ctx.db('prealerts').where({ id: p.id }).first()).ack_alerted_at).toMatch(ISO_TIME);
  });

  it('a pre-alert nobody acknowledges in PREALERT_ACK_AFTER alerts the dispatchers once (several sweeps at once too); an acknowledged one never', async () => {
    const h = await addHospital({ name: 'Slow To Answer' });
    const t = await linkOf(h.id);
    const { caseId, assignmentId } = await conveyed(6, h.id);
    // The first is acknowledged; the second (the one in force) is not.
    const answered = expectStatus(await sendPrealert(caseId, assignmentId, ATMIST), 201, 'answered').body.prealert as PrealertDto;
    expectStatus(await ack(h.id, answered.id, t), 200, 'ack');
    const late = expectStatus(await sendPrealert(caseId, assignmentId, ATMIST), 201, 'late').body.prealert as PrealertDto;
    const staffSocket = await s.socket({ token: staff.operator });
    const heard = collect(staffSocket, 'prealert.late');
    // Not yet late: not told.
    await destinationService.sweepLateAcks(s.ctx);
    expect((await s.ctx.db('prealerts').where({ id: late.id }).first()).ack_alerted_at).toBeNull();
    const later = { ...s.ctx, clock: { now: () => Date.now() + (s.ctx.config.prealertAckAfterS + 5) * 1000, after: s.ctx.clock?.after ?? (() => () => undefined) } };
    const told = await Promise.all([destinationService.sweepLateAcks(later), destinationService.sweepLateAcks(later), destinationService.sweepLateAcks(later)]);
    expect(told.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await roundTrip(staffSocket);
    const mine = heard.seen.filter((x) => x.prealert_id === late.id || x.prealert_id === answered.id);
    expect(mine).toEqual([{
      prealert_id: late.id, case_id: caseId, assignment_id: assignmentId, hospital_id: h.id, hospital: 'Slow To Answer', license_plate: plateOf(6),
      priority: expect.any(Number), activation: 'stroke', sent_at: late.sent_at, alerted_at: expect.stringMatching(ISO_TIME),
    }]);
    expect((await caseEvents(s, caseId)).filter((e) => e.action === 'prealert.late').map((e) => [e.actor_type, JSON.parse(e.after).prealert_id])).toEqual([['system', late.id]]);
    // A later sweep tells nobody again.
    await expectNoWrite(s.ctx.db, () => destinationService.sweepLateAcks(later));
    // Acknowledged late, it is still acknowledged, with both times kept.
    expect(expectStatus(await ack(h.id, late.id, t), 200, 'late ack').body.prealert).toMatchObject({ id: late.id, sent_at: late.sent_at, acknowledged_at: expect.stringMatching(ISO_TIME) });
    staffSocket.disconnect();
  });
});

describe('the handover step (eTimes.12)', () => {
  it('at hospital → handover → cleared: handover_at is set between the two, on the timeline, and the call resolves at the clear', async () => {
    const h = await addHospital();
    const { caseId, assignmentId } = await conveyed(1, h.id);
    expectStatus(await press(1, 'transporting'), 200, 'conveying');
    const arrived = expectStatus(await press(1, 'at_hospital'), 200, 'arrived').body.assignment;
    const handed = expectStatus(await press(1, 'handover'), 200, 'handover').body;
    expect(handed).toEqual({ ok: true, assignment: expect.objectContaining({ id: assignmentId, status: 'handover', handover_at: expect.stringMatching(ISO_TIME), cleared_at: null }) });
    expect(handed.assignment.handover_at >= arrived.at_hospital_at).toBe(true);
    expect((await getCase(caseId)).assignments[0]).toMatchObject({ status: 'handover', handover_at: handed.assignment.handover_at });
    expect((await s.ctx.db('ambulances').where({ id: 1 }).first()).status).toBe('busy');
    expectError(await expectNoWrite(s.ctx.db, () => press(1, 'at_hospital')), 409, `Ambulance ${plateOf(1)} is handed over; it cannot go back to at hospital`);
    expectError(await expectNoWrite(s.ctx.db, () => press(1, 'handover')), 409, `Ambulance ${plateOf(1)} is already handed over`);
    const cleared = expectStatus(await press(1, 'cleared'), 200, 'cleared').body.assignment;
    expect(cleared).toMatchObject({ status: 'cleared', handover_at: handed.assignment.handover_at });
    expect(cleared.cleared_at >= handed.assignment.handover_at).toBe(true);
    expect(await getCase(caseId)).toMatchObject({ status: 'resolved' });
    const steps = (await caseEvents(s, caseId)).filter((e) => e.action === 'unit.status').map((e) => JSON.parse(e.after).status);
    expect(steps).toEqual(['transporting', 'at_hospital', 'handover', 'cleared']);
  });

  it('may be skipped, as every step: at hospital → cleared leaves handover_at empty', async () => {
    const h = await addHospital();
    const { caseId } = await conveyed(2, h.id);
    expectStatus(await press(2, 'at_hospital'), 200, 'arrived');
    expect(expectStatus(await press(2, 'cleared'), 200, 'cleared').body.assignment).toMatchObject({ status: 'cleared', handover_at: null });
    expect(await getCase(caseId)).toMatchObject({ status: 'resolved' });
  });

  it('the driver socket presses it like every step', async () => {
    const h = await addHospital();
    const { caseId } = await conveyed(3, h.id);
    const { driver } = await trackingTokens(s, staff.operator, caseId, 3);
    const sock = await s.socket({ driverToken: driver });
    expect(await sock.timeout(2000).emitWithAck('unit.status', { status: 'at_hospital' })).toMatchObject({ ok: true });
    expect(await sock.timeout(2000).emitWithAck('unit.status', { status: 'handover' })).toEqual({ ok: true, assignment: expect.objectContaining({ status: 'handover', handover_at: expect.stringMatching(ISO_TIME) }) });
    sock.disconnect();
  });

  it('the hospital presses it for a unit conveyed to it: by the hospital on the timeline; its page shows the clock stopped', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const { caseId, assignmentId } = await conveyed(4, h.id);
    expectStatus(await press(4, 'at_hospital'), 200, 'arrived');
    const before = (await pageOf(h.id, t)).arrived[0];
    expect(before).toMatchObject({ assignment_id: assignmentId, status: 'at_hospital', at_hospital_at: expect.stringMatching(ISO_TIME), handover_at: null });
    const res = expectStatus(await handover(h.id, assignmentId, t), 200, 'hospital handover').body;
    expect(res).toEqual({ ok: true, assignment: expect.objectContaining({ id: assignmentId, status: 'handover', handover_at: expect.stringMatching(ISO_TIME) }) });
    const entry = (await caseEvents(s, caseId)).filter((e) => e.action === 'unit.status').at(-1);
    expect([entry.actor_type, entry.actor_id, JSON.parse(entry.after).status]).toEqual(['hospital', h.id, 'handover']);
    expect((await pageOf(h.id, t)).arrived[0]).toMatchObject({ status: 'handover', at_hospital_at: before.at_hospital_at, handover_at: res.assignment.handover_at });
    // Once is enough; the crew then clears.
    expectError(await expectNoWrite(s.ctx.db, () => handover(h.id, assignmentId, t)), 409, `Ambulance ${plateOf(4)} is already handed over`);
    expectStatus(await press(4, 'cleared'), 200, 'cleared');
    expectError(await expectNoWrite(s.ctx.db, () => handover(h.id, assignmentId, t)), 403, NOT_COMING_HERE);
  });

  it('the hospital cannot press it for a unit with another destination, or none', async () => {
    const [h, other] = [await addHospital(), await addHospital()];
    const t = await linkOf(h.id);
    const elsewhere = await conveyed(5, other.id);
    const noDestination = await dispatchCase(s, staff.operator, 6);
    expectStatus(await press(5, 'at_hospital'), 200, 'arrived');
    expectStatus(await press(6, 'at_hospital'), 200, 'arrived');
    expectError(await expectNoWrite(s.ctx.db, () => handover(h.id, elsewhere.assignmentId, t)), 403, NOT_COMING_HERE);
    const none = await assignmentOf(noDestination, 6);
    expectError(await expectNoWrite(s.ctx.db, () => handover(h.id, none, t)), 403, NOT_COMING_HERE);
    // Sent there after all: now it may.
    expectStatus(await setDestination(elsewhere.caseId, elsewhere.assignmentId, { hospital_id: h.id, reason: 'other' }), 200, 'redirected');
    expect((await handover(h.id, elsewhere.assignmentId, t)).status).toBe(200);
  });

  it('the hospital cannot press it before the unit conveys its patient (409): it never skips the scene and the transport', async () => {
    const h = await addHospital();
    const t = await linkOf(h.id);
    const { assignmentId } = await conveyed(8, h.id);
    for (const step of [null, 'en_route', 'on_scene']) {
      if (step) expectStatus(await press(8, step), 200, step);
      expectError(await expectNoWrite(s.ctx.db, () => handover(h.id, assignmentId, t)), 409, `${plateOf(8)} is not conveying its patient here yet`);
    }
    expectStatus(await press(8, 'transporting'), 200, 'conveying');
    // Conveying: the hospital may take the patient before the crew presses its arrival.
    expect(expectStatus(await handover(h.id, assignmentId, t), 200, 'handover').body.assignment).toMatchObject({ status: 'handover', at_hospital_at: null });
  });

  it("a hospital page's socket hears `hospital.changed` when a unit coming to it changes step", async () => {
    const h = await addHospital();
    const sock = await s.socket({ hospitalId: h.id, hospitalToken: await linkOf(h.id) });
    await conveyed(7, h.id);
    await roundTrip(sock);
    for (const step of ['transporting', 'at_hospital', 'handover', 'cleared']) {
      const heard = nextEvent(sock, 'hospital.changed', 2000);
      expectStatus(await press(7, step), 200, step);
      expect({ step, heard: await heard }).toEqual({ step, heard: { hospital_id: h.id } });
    }
    sock.disconnect();
  });
});

describe('PREALERT_ACK_AFTER on a running server', () => {
  const fast = useTestServer({ env: { ...LIMITS, PREALERT_ACK_AFTER: '1s' } });

  it("the node's own sweep alerts staff sockets once, and the timeline says so", async () => {
    const [operator, admin] = [await fast.signIn('operator'), await fast.signIn('admin')];
    const h = expectStatus(await fast.api('POST', '/api/hospitals', { token: admin, body: { name: 'Quiet Hospital', ...HERE } }), 201, 'hospital').body.hospital as HospitalDto;
    const caseId = await dispatchCase(fast, operator, 1);
    const assignmentId = (await fast.ctx.db('assignments').where({ case_id: caseId }).first()).id as number;
    expectStatus(await fast.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/destination`, { token: operator, body: { hospital_id: h.id, reason: 'closest' } }), 200, 'destination');
    const sock: Socket<any, any> = await fast.socket({ token: operator });
    const heard = collect(sock, 'prealert.late');
    const p = expectStatus(await fast.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/prealert`, { token: operator, body: ATMIST }), 201, 'prealert').body.prealert as PrealertDto;
    await waitFor(() => heard.seen.length > 0, 'prealert.late', 10_000);
    expect(heard.seen[0]).toMatchObject({ prealert_id: p.id, case_id: caseId, hospital: 'Quiet Hospital', license_plate: plateOf(1) });
    // Further sweeps (every second) tell nobody again.
    await sleep(2500);
    await roundTrip(sock);
    expect(heard.seen).toHaveLength(1);
    expect((await fast.ctx.db('case_events').where({ case_id: caseId, action: 'prealert.late' })).length).toBe(1);
    expect(await fast.ctx.db('prealerts').where({ id: p.id }).first()).toMatchObject({ ack_alerted_at: expect.stringMatching(ISO_TIME), acknowledged_at: null });
    sock.disconnect();
    expectStatus(await updateCase(fast, operator, caseId, { status: 'closed' }), 200, 'close');
    expect((await checkInvariants(fast.ctx.db)).violations).toEqual([]);
  });
});
