import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentDto, BackupAlert, CaseDto } from '../../contract';
import { checkInvariants } from '../../reliability/invariants';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { caseEvents, dispatchCase, expectStatus, plateOf, trackingTokens, updateCase } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';

/**
 * Several units on one call (issue 29): adding a unit, standing one down, the call's life with
 * more than one unit (clearing, closing), the primary unit SPEC's single-unit fields name, a
 * crew's request for backup over REST and the driver socket, and the suggestions' need and plan.
 * Every test pins the capabilities it relies on and ends with the invariants checked.
 */
const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;

beforeAll(async () => {
  operator = await s.signIn('operator');
});

afterEach(async () => {
  for (const c of await s.ctx.db('cases').whereIn('status', ['active', 'pending'])) expectStatus(await updateCase(s, operator, c.id, { status: 'closed' }), 200, 'close');
  expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
});

const setCapability = (id: number, capability: string) => s.ctx.db('ambulances').where({ id }).update({ capability });
const addUnit = (caseId: string, ambulanceId: number, headers?: Record<string, string>) =>
  s.api('POST', `/api/cases/${caseId}/assignments`, { token: operator, body: { ambulance_id: ambulanceId }, headers });
const standDown = (caseId: string, assignmentId: number, reason = 'not needed any more') =>
  s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/cancel`, { token: operator, body: { reason } });
const press = (ambulanceId: number, status: string, t?: string) =>
  s.api('POST', `/api/ambulances/${ambulanceId}/unit-status${t ? `?t=${t}` : ''}`, { token: t ? undefined : operator, body: { status } });
const getCase = async (id: string): Promise<CaseDto> => expectStatus(await s.api('GET', `/api/cases/${id}`, { token: operator }), 200, 'case').body.case;
const unitOf = (c: CaseDto, ambulanceId: number) => c.assignments.find((a) => a.ambulance_id === ambulanceId)!;
const statusOf = async (id: number) => (await s.ctx.db('ambulances').where({ id }).first()).status;

describe('POST /api/cases/{id}/assignments', () => {
  it('adds a free unit to a running call: both listed, the first stays primary, the new crew is mailed, the patient is not', async () => {
    await setCapability(7, 'responder');
    const caseId = await dispatchCase(s, operator, 1);
    const mailsBefore = await s.ctx.db('outbox').where({ case_id: caseId }).count({ n: '*' }).first();
    const res = await addUnit(caseId, 7);
    expect(res.status).toBe(201);
    const body = res.body as { case: CaseDto; assignment: AssignmentDto };
    expect(body.assignment).toMatchObject({ ambulance_id: 7, license_plate: plateOf(7), status: 'dispatched', capability: 'responder', can_transport: false });
    expect(body.case.assignments.map((a) => a.ambulance_id)).toEqual([1, 7]);
    expect(body.case).toMatchObject({ status: 'active', ambulance_id: 1, license_plate: plateOf(1), assignment: { ambulance_id: 1 } });
    expect(await statusOf(7)).toBe('busy');
    const mails = await s.ctx.db('outbox').where({ case_id: caseId }).orderBy('id');
    expect(mails.length - Number(mailsBefore!.n)).toBe(1);
    expect(mails.at(-1)).toMatchObject({ to_address: 'driver7@lifeline.test' });
    expect((await caseEvents(s, caseId)).some((e) => e.action === 'unit.added')).toBe(true);
  });

  it('gives a waiting call its first unit: active with it, as a dispatch from the queue', async () => {
    const waiting = expectStatus(await s.api('POST', '/api/cases', { token: operator, body: { to: 'p@example.com', status: 'pending', patientName: 'Q', description: 'Stroke' } }), 201, 'queued').body.case.id;
    const res = expectStatus(await addUnit(waiting, 2), 201, 'add');
    expect(res.body.case).toMatchObject({ status: 'active', ambulance_id: 2, assignment: { ambulance_id: 2, status: 'dispatched' } });
  });

  it('409 for a unit that is not free and for a call that is over; 422 for no such unit; each writes nothing', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    expectError(await expectNoWrite(s.ctx.db, () => addUnit(caseId, 1)), 409, `Ambulance ${plateOf(1)} is not available; choose another ambulance`);
    expectError(await expectNoWrite(s.ctx.db, () => addUnit(caseId, 999)), 422, 'Ambulance 999 does not exist');
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    expectError(await expectNoWrite(s.ctx.db, () => addUnit(caseId, 2)), 409, 'This call is closed; units are added to open calls only');
    expectError(await addUnit(caseId, 'x' as unknown as number), 400, 'ambulance_id: must be a whole number');
  });

  it('two calls taking one unit at once: exactly one wins, the other is a 409, and the unit is on one call', async () => {
    const [a, b] = [await dispatchCase(s, operator, 1), await dispatchCase(s, operator, 2)];
    const results = await Promise.all([addUnit(a, 5), addUnit(b, 5)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await s.ctx.db('assignments').where({ ambulance_id: 5 }).whereNotIn('status', ['cleared', 'cancelled'])).toHaveLength(1);
  });

  it('a second unit counts as on a call: it cannot be made available, put in maintenance or deleted', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    expectStatus(await addUnit(caseId, 4), 201, 'add');
    const admin = await s.signIn('admin');
    for (const status of ['available', 'maintenance']) {
      expectError(await expectNoWrite(s.ctx.db, () => s.api('PUT', '/api/ambulances/4', { token: operator, body: { status } })), 409,
        `Ambulance ${plateOf(4)} is on an active case; close or reassign the case first`);
    }
    expect((await expectNoWrite(s.ctx.db, () => s.api('DELETE', '/api/ambulances/4', { token: admin }))).status).toBe(409);
  });

  it('a retry with the same Idempotency-Key adds the unit once', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const headers = { 'idempotency-key': `units-${caseId}` };
    const [first, again] = [await addUnit(caseId, 3, headers), await addUnit(caseId, 3, headers)];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await s.ctx.db('assignments').where({ case_id: caseId, ambulance_id: 3 })).toHaveLength(1);
  });
});

describe('the call with several units', () => {
  it('the call resolves only when its last unit clears; the one conveying becomes primary', async () => {
    await setCapability(1, 'responder');
    await setCapability(4, 'als');
    const caseId = await dispatchCase(s, operator, 1);
    expectStatus(await addUnit(caseId, 4), 201, 'add');
    expectStatus(await press(1, 'on_scene'), 200, 'car on scene');
    expectStatus(await press(4, 'on_scene'), 200, 'ambulance on scene');
    expectStatus(await press(4, 'transporting'), 200, 'conveying');
    let c = await getCase(caseId);
    expect(c).toMatchObject({ status: 'active', ambulance_id: 4, license_plate: plateOf(4), assignment: { ambulance_id: 4, status: 'transporting' } });
    expectStatus(await press(1, 'cleared'), 200, 'car clears');
    c = await getCase(caseId);
    expect(c.status).toBe('active');
    expect(await statusOf(1)).toBe('available');
    expect(unitOf(c, 1).status).toBe('cleared');
    expectStatus(await press(4, 'cleared'), 200, 'ambulance clears');
    c = await getCase(caseId);
    expect(c).toMatchObject({ status: 'resolved', ambulance_id: 4, assignment: { ambulance_id: 4, status: 'cleared' } });
    expect(c.closed_at).toBe(unitOf(c, 4).cleared_at);
    await setCapability(1, 'als');
  });

  it('closing the call ends every open unit (cleared once on scene, else cancelled) and frees them all', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    expectStatus(await addUnit(caseId, 2), 201, 'add');
    expectStatus(await press(1, 'on_scene'), 200, 'on scene');
    const c = expectStatus(await updateCase(s, operator, caseId, { status: 'resolved' }), 200, 'resolve').body.case as CaseDto;
    expect(unitOf(c, 1).status).toBe('cleared');
    expect(unitOf(c, 2).status).toBe('cancelled');
    expect([await statusOf(1), await statusOf(2)]).toEqual(['available', 'available']);
  });

  it('standing down one unit keeps the call active with the other; its driver link stops, the other\'s works', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const second = expectStatus(await addUnit(caseId, 6), 201, 'add').body.assignment as AssignmentDto;
    const six = await trackingTokens(s, operator, caseId, 6);
    const one = await trackingTokens(s, operator, caseId, 1);
    const res = expectStatus(await standDown(caseId, second.id, 'first crew has it in hand'), 200, 'stand down');
    expect(res.body.assignment).toMatchObject({ id: second.id, status: 'cancelled' });
    expect(res.body.case).toMatchObject({ status: 'active', ambulance_id: 1 });
    expect(await statusOf(6)).toBe('available');
    expect((await s.api('GET', `/api/track/6?t=${six.driver}`)).status).toBe(404);
    expect((await s.api('GET', `/api/track/1?t=${one.driver}`)).status).toBe(200);
    const entry = (await caseEvents(s, caseId)).find((e) => e.action === 'unit.cancelled');
    expect(JSON.parse(entry!.after)).toMatchObject({ ambulance_id: 6, reason: 'first crew has it in hand', status: 'cancelled' });
  });

  it('standing down the unit the patient watches come: the patient is mailed the link of the unit still coming', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const first = (await getCase(caseId)).assignment!;
    expectStatus(await addUnit(caseId, 5), 201, 'add');
    const mailsBefore = (await s.ctx.db('outbox').where({ case_id: caseId, kind: 'tracking-patient' })).length;
    expectStatus(await standDown(caseId, first.id, 'the ambulance behind it is nearer now'), 200, 'stand down');
    const mails = await s.ctx.db('outbox').where({ case_id: caseId, kind: 'tracking-patient' }).orderBy('id');
    expect(mails.length).toBe(mailsBefore + 1);
    const link = (JSON.parse(mails.at(-1).links) as string[]).find((l) => l.includes('/track/5?t='))!;
    expect(link).toBeTruthy();
    const t = new URL(link).searchParams.get('t');
    expect(expectStatus(await s.api('GET', `/api/track/5?t=${t}`), 200, 'the new link').body).toMatchObject({ ambulanceId: 5, unit_status: 'dispatched' });
    // A unit the patient was not watching leaves without a mail.
    const third = expectStatus(await addUnit(caseId, 6), 201, 'add').body.assignment as AssignmentDto;
    expectStatus(await standDown(caseId, third.id), 200, 'stand down');
    expect((await s.ctx.db('outbox').where({ case_id: caseId, kind: 'tracking-patient' })).length).toBe(mailsBefore + 1);
  });

  it('standing down the last unit before the scene sends the call back to the queue; after a unit treated and cleared, it resolves', async () => {
    const queued = await dispatchCase(s, operator, 1);
    const only = (await getCase(queued)).assignment!;
    expect(expectStatus(await standDown(queued, only.id), 200, 'stand down').body.case).toMatchObject({ status: 'pending', ambulance_id: null });
    expect(await statusOf(1)).toBe('available');

    const treated = await dispatchCase(s, operator, 2);
    const late = expectStatus(await addUnit(treated, 3), 201, 'add').body.assignment as AssignmentDto;
    expectStatus(await press(2, 'on_scene'), 200, 'on scene');
    expectStatus(await press(2, 'cleared'), 200, 'treated and left');
    expect((await getCase(treated)).status).toBe('active');
    expect(expectStatus(await standDown(treated, late.id), 200, 'stand down').body.case).toMatchObject({ status: 'resolved' });
  });

  it('refuses to stand down a unit that reached the scene, one already off the call, one of another call, and without a reason', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const other = await dispatchCase(s, operator, 2);
    const a = (await getCase(caseId)).assignment!;
    expectError(await expectNoWrite(s.ctx.db, () => standDown(other, a.id)), 404, 'Assignment not found');
    expectError(await expectNoWrite(s.ctx.db, () => standDown(caseId, a.id, ' ')), 400, 'reason: required: say why the unit is stood down');
    expectStatus(await press(1, 'on_scene'), 200, 'on scene');
    expectError(await expectNoWrite(s.ctx.db, () => standDown(caseId, a.id)), 409, `${plateOf(1)} has reached the scene; it clears when its work is done rather than being stood down`);
    const b = expectStatus(await addUnit(caseId, 3), 201, 'add').body.assignment as AssignmentDto;
    expectStatus(await standDown(caseId, b.id), 200, 'stand down');
    expectError(await expectNoWrite(s.ctx.db, () => standDown(caseId, b.id)), 409, `${plateOf(3)} is no longer on this call (it was cancelled)`);
  });
});

describe('backup', () => {
  it('a crew asks over REST with its driver link: the timeline records it and staff hear backup.requested', async () => {
    const caseId = await dispatchCase(s, operator, 2, { priority: 1 });
    const { driver } = await trackingTokens(s, operator, caseId, 2);
    const staff = await s.socket({ token: operator });
    try {
      const heard = new Promise<BackupAlert>((resolve) => staff.once('backup.requested', resolve));
      const res = expectStatus(await s.api('POST', `/api/ambulances/2/backup?t=${driver}`, { body: { note: 'two patients' } }), 200, 'backup');
      expect(res.body).toMatchObject({ ok: true, alert: { case_id: caseId, priority: 1, ambulance_id: 2, license_plate: plateOf(2), note: 'two patients' } });
      expect(await heard).toEqual(res.body.alert);
      expect((await caseEvents(s, caseId)).filter((e) => e.action === 'backup.requested')).toHaveLength(1);
      // The call carries the request until a unit answers it, so a board opened later still shows it.
      expect((await getCase(caseId)).backup_request).toEqual(res.body.alert);
      expectStatus(await addUnit(caseId, 4), 201, 'the backup');
      expect((await getCase(caseId)).backup_request).toBeNull();
    } finally {
      staff.disconnect();
    }
  });

  it('over the driver socket, acknowledged; another ambulance\'s driver link or a unit on no call is refused and writes nothing', async () => {
    const caseId = await dispatchCase(s, operator, 3);
    const { driver } = await trackingTokens(s, operator, caseId, 3);
    const sock = await s.socket({ driverToken: driver });
    try {
      expect(await sock.timeout(2000).emitWithAck('unit.backup', {})).toMatchObject({ ok: true, alert: { case_id: caseId, ambulance_id: 3, note: null } });
      expect(await sock.timeout(2000).emitWithAck('unit.backup', { note: 'x'.repeat(201) })).toEqual({ ok: false, error: 'note: Too big: expected string to have <=200 characters' });
    } finally {
      sock.disconnect();
    }
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/ambulances/4/backup?t=${driver}`, { body: {} })), 403, 'This link is not valid for sending positions');
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/ambulances/8/backup', { token: operator, body: {} })), 409, `Ambulance ${plateOf(8)} is on no call`);
  });
});

describe('GET /api/dispatch/suggestions with a priority', () => {
  const place = { latitude: 17.385, longitude: 78.4867 };
  const near = (km: number) => ({ latitude: place.latitude + km / 111.195, longitude: place.longitude, position_at: new Date().toISOString(), position_source: 'staff' });

  it('ranks units meeting the need first, and plans "send both" when the quickest is a car', async () => {
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) await s.ctx.db('ambulances').where({ id }).update({ latitude: null, longitude: null, position_at: null });
    await s.ctx.db('ambulances').where({ id: 7 }).update({ capability: 'responder', ...near(1) });
    await s.ctx.db('ambulances').where({ id: 5 }).update({ capability: 'bls', ...near(2) });
    await s.ctx.db('ambulances').where({ id: 6 }).update({ capability: 'als', ...near(6) });
    const res = expectStatus(await s.api('GET', `/api/dispatch/suggestions?latitude=${place.latitude}&longitude=${place.longitude}&priority=1`, { token: operator }), 200, 'suggest');
    expect(res.body.suggestions.map((x: { ambulance_id: number; meets_need: boolean }) => [x.ambulance_id, x.meets_need])).toEqual([[6, true], [7, false], [5, false]]);
    expect(res.body.plan).toMatchObject({ priority: 1, need: 'als', first: { ambulance_id: 7, can_transport: false }, transport: { ambulance_id: 6, meets_need: true }, send: [7, 6] });
    expect(res.body.plan.reason).toMatch(/^car TS09 EA 1007, ~\d+ min; ambulance TS09 EA 1006, ~\d+ min: send both$/);

    const p3 = expectStatus(await s.api('GET', `/api/dispatch/suggestions?latitude=${place.latitude}&longitude=${place.longitude}&priority=3`, { token: operator }), 200, 'suggest');
    expect(p3.body.suggestions.map((x: { ambulance_id: number }) => x.ambulance_id)).toEqual([5, 6, 7]);
    expect(p3.body.plan).toMatchObject({ need: 'bls', first: { ambulance_id: 7 }, transport: { ambulance_id: 5 }, send: [7, 5] });
    const none = expectStatus(await s.api('GET', `/api/dispatch/suggestions?latitude=${place.latitude}&longitude=${place.longitude}`, { token: operator }), 200, 'suggest');
    expect(none.body.plan).toBeNull();
    expectError(await s.api('GET', `/api/dispatch/suggestions?latitude=${place.latitude}&longitude=${place.longitude}&priority=5`, { token: operator }), 400, 'priority: must be 1, 2, 3 or 4');
    await s.ctx.db('ambulances').whereIn('id', [5, 6, 7]).update({ capability: 'als' });
  });

  it('the driver link sees the other units on its call with their steps', async () => {
    await setCapability(8, 'responder');
    const caseId = await dispatchCase(s, operator, 2);
    expectStatus(await addUnit(caseId, 8), 201, 'add');
    const { driver } = await trackingTokens(s, operator, caseId, 2);
    const track = expectStatus(await s.api('GET', `/api/track/2?t=${driver}`), 200, 'track').body;
    expect(track.units).toEqual([{ license_plate: plateOf(8), capability: 'responder', can_transport: false, status: 'dispatched' }]);
    const sock = await s.socket({ driverToken: driver });
    try {
      const heard = new Promise<{ units?: unknown[] }>((resolve) => sock.once('track.case', resolve));
      expectStatus(await press(8, 'en_route'), 200, 'en route');
      expect((await heard).units).toEqual([{ license_plate: plateOf(8), capability: 'responder', can_transport: false, status: 'en_route' }]);
    } finally {
      sock.disconnect();
    }
    await setCapability(8, 'als');
  });
});
