import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoWrite } from '../testing/assertions';
import { ISO_TIME, caseEvents, dispatchCase, driverOf, expectStatus, trackingTokens, updateCase, userId, shareLocation } from '../testing/dispatchHelpers';
import { useTestServer } from '../testing/testServer';
import { DEMO } from '../testing/demoAccounts';
import { LOCATION_VIEW_EVERY_MS } from './caseService';

/**
 * Audit: every state change of a case, and every read of a patient's location by
 * staff, is on the case's timeline with actor, time and before/after; admins read it with
 * GET /api/cases/{id}/timeline (the Edit Case dialog's "Case timeline").
 */
const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;
let admin: string;
let operatorId: number;
let adminId: number;

beforeAll(async () => {
  operator = await s.signIn('operator');
  admin = await s.signIn('admin');
  operatorId = await userId(s, DEMO.operator.email);
  adminId = await userId(s, DEMO.admin.email);
});

const json = (v: string | null) => (v == null ? null : JSON.parse(v));
/** The entries added to a case's timeline by `act`, with before/after parsed. */
async function added(caseId: string, act: () => Promise<unknown>) {
  const known = (await caseEvents(s, caseId)).length;
  const started = new Date().toISOString();
  await act();
  const entries = (await caseEvents(s, caseId)).slice(known);
  for (const e of entries) {
    expect(e.created_at).toMatch(ISO_TIME);
    expect(e.created_at >= started).toBe(true);
  }
  return entries.map((e) => ({ action: e.action, actor: [e.actor_type, e.actor_id], before: json(e.before), after: json(e.after) }));
}
const share = async (caseId: string, latitude: number, longitude: number) =>
  expectStatus(await shareLocation(s, caseId, { latitude, longitude, accuracy: 9 }), 200, 'share');

describe('every state change of a case is on its timeline with actor, time, before and after', () => {
  it('dispatch (POST /live-location): created, by the operator, with what was set', async () => {
    const before = (await s.ctx.db('cases').pluck('id')) as string[];
    const res = await s.api('POST', '/live-location', { token: operator, body: { to: 'p@example.com', patientName: 'Audit One', description: 'Stroke', caseType: 'Fire', license_plate: 1 } });
    expect(res.status).toBe(201);
    expect(before).not.toContain(res.body.caseId);
    expect((await caseEvents(s, res.body.caseId)).map((e) => ({ action: e.action, actor: [e.actor_type, e.actor_id], before: e.before, after: json(e.after) }))).toEqual([{
      action: 'created', actor: ['user', operatorId], before: null,
      // Fire is no type the priority is derived from: 3; the call came in when the case was created.
      after: { status: 'active', priority: 3, call_received_at: expect.stringMatching(ISO_TIME), patient_name: 'Audit One', patient_email: 'p@example.com', description: 'Stroke', case_type: 'Fire', ambulance_id: 1 },
    }, {
      // The dispatch's links mailed at once: to the crew, and in the patient's one mail.
      action: 'tracking', actor: ['user', operatorId], before: null, after: { ambulance_id: 1, patient_email: 'p@example.com', driver_email: driverOf(1) },
    }]);
  });

  it('POST /api/cases: created, by the admin', async () => {
    const res = await s.api('POST', '/api/cases', { token: admin, body: { to: 'q@example.com', patientName: 'Audit Two', description: 'Fall' } });
    expect(res.status).toBe(201);
    const [e] = await caseEvents(s, res.body.case.id);
    expect({ action: e.action, actor: [e.actor_type, e.actor_id], after: json(e.after) })
      .toEqual({ action: 'created', actor: ['user', adminId], after: expect.objectContaining({ patient_name: 'Audit Two', ambulance_id: null }) });
  });

  it('PUT of the patient fields: updated, only the changed fields before and after', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    expect(await added(caseId, () => updateCase(s, admin, caseId, { patientName: 'Pat Renamed', description: 'Heart Attack', caseType: 'Fire' }))).toEqual([
      { action: 'updated', actor: ['user', adminId], before: { patient_name: 'Pat Doe', case_type: 'Hospitalization' }, after: { patient_name: 'Pat Renamed', case_type: 'Fire' } },
    ]);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it.each([
    ['closed', { status: 'closed' }],
    ['resolved', { status: 'resolved' }],
    ['pending', { status: 'pending' }],
  ])('PUT status %s: updated, with the status (and the close time when it closes) and the assignment it ends', async (status, body) => {
    const caseId = await dispatchCase(s, operator, 3);
    const [e] = await added(caseId, () => updateCase(s, operator, caseId, body));
    // The crew never reached the scene: leaving active cancels the assignment; back in the queue, the call lets go of its ambulance.
    expect(e).toEqual({
      action: 'updated', actor: ['user', operatorId],
      before: status === 'pending' ? { status: 'active', ambulance_id: 3, unit_status: 'dispatched' } : { status: 'active', closed_at: null, unit_status: 'dispatched' },
      after: status === 'pending' ? { status, ambulance_id: null, unit_status: 'cancelled' } : { status, closed_at: expect.stringMatching(ISO_TIME), unit_status: 'cancelled' },
    });
  });

  it('PUT that reactivates a closed case, and one that reassigns its ambulance', async () => {
    const caseId = await dispatchCase(s, operator, 4);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    expect(await added(caseId, () => updateCase(s, operator, caseId, { status: 'active' }))).toEqual([
      { action: 'updated', actor: ['user', operatorId], before: { status: 'closed', closed_at: expect.stringMatching(ISO_TIME) }, after: { status: 'active', closed_at: null } },
      { action: 'tracking', actor: ['user', operatorId], before: null, after: { ambulance_id: 4, patient_email: 'patient@example.com', driver_email: driverOf(4) } },
    ]);
    expect(await added(caseId, () => updateCase(s, operator, caseId, { ambulance_id: 5 }))).toEqual([
      // The old assignment is cancelled on the same entry; the new one starts dispatched.
      { action: 'updated', actor: ['user', operatorId], before: { ambulance_id: 4, unit_status: 'dispatched' }, after: { ambulance_id: 5, unit_status: 'cancelled' } },
      { action: 'tracking', actor: ['user', operatorId], before: null, after: { ambulance_id: 5, patient_email: 'patient@example.com', driver_email: driverOf(5) } },
    ]);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it("the patient's location share: location, by the patient, with the previous position before", async () => {
    const caseId = await dispatchCase(s, operator, 6);
    expect(await added(caseId, () => share(caseId, 17.41, 78.42))).toEqual([
      { action: 'location', actor: ['patient', null], before: null, after: { latitude: 17.41, longitude: 78.42, accuracy: 9 } },
    ]);
    expect(await added(caseId, () => share(caseId, 17.42, 78.43))).toEqual([
      { action: 'location', actor: ['patient', null], before: { latitude: 17.41, longitude: 78.42 }, after: { latitude: 17.42, longitude: 78.43, accuracy: 9 } },
    ]);
  });

  it('sending the tracking links: tracking, by the operator, with both addresses mailed', async () => {
    const caseId = await dispatchCase(s, operator, 7);
    expect(await added(caseId, () => trackingTokens(s, operator, caseId, 7))).toEqual([
      { action: 'tracking', actor: ['user', operatorId], before: null, after: { ambulance_id: 7, patient_email: 'patient@example.com', driver_email: 'driver7@lifeline.test' } },
    ]);
  });

  it('DELETE: deleted, by the admin, with the whole case before; the timeline outlives the case', async () => {
    const caseId = await dispatchCase(s, operator, 8);
    const [e] = await added(caseId, async () => expectStatus(await s.api('DELETE', `/api/cases/${caseId}`, { token: admin }), 200, 'delete'));
    expect(e).toMatchObject({ action: 'deleted', actor: ['user', adminId], after: null, before: { id: caseId, status: 'active', ambulance_id: 8, patientName: 'Pat Doe' } });
    expect(await s.ctx.db('cases').where({ id: caseId }).first()).toBeUndefined();
  });

  it('a refused change or one that changes nothing leaves no entry', async () => {
    const caseId = await dispatchCase(s, operator, 8);
    await expectNoWrite(s.ctx.db, () => updateCase(s, operator, caseId, { status: 'archived' }));
    await expectNoWrite(s.ctx.db, () => updateCase(s, operator, caseId, { ambulance_id: 1 })); // busy: 409
    await expectNoWrite(s.ctx.db, () => updateCase(s, operator, caseId, { patientName: 'Pat Doe', status: 'active' }));
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it('admins read the timeline in order with actor and time; operators may not', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    const res = await s.api('GET', `/api/cases/${caseId}/timeline`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.timeline.map((e: any) => [e.action, e.actor_type, e.actor_id])).toEqual([['created', 'user', operatorId], ['tracking', 'user', operatorId], ['updated', 'user', operatorId]]);
    for (const e of res.body.timeline) expect(e.created_at).toMatch(ISO_TIME);
    // The sides are objects in the answer, not JSON text inside JSON: the client reads them as they are.
    const [created, tracking, closed] = res.body.timeline;
    expect([created.before, typeof created.after, tracking.before, typeof tracking.after]).toEqual([null, 'object', null, 'object']);
    expect(created.after).toMatchObject({ status: 'active', ambulance_id: 2, patient_email: expect.any(String) });
    expect(closed.before).toMatchObject({ status: 'active' });
    expect(closed.after).toMatchObject({ status: 'closed', closed_at: expect.stringMatching(ISO_TIME) });
    expect((await s.api('GET', `/api/cases/${caseId}/timeline`, { token: operator })).status).toBe(403);
  });
});

describe("every read of a patient's location by staff is on the timeline (location.viewed), once per staff member and case every 10 minutes", () => {
  let located: string;
  let unlocated: string;
  beforeAll(async () => {
    // Free every ambulance the tests above left on active cases.
    for (const c of await s.ctx.db('cases').where({ status: 'active' })) expectStatus(await updateCase(s, admin, c.id, { status: 'closed' }), 200, 'close');
    located = await dispatchCase(s, operator, 1);
    unlocated = await dispatchCase(s, operator, 3);
    await share(located, 17.45, 78.45);
  });
  const views = async (caseId: string) =>
    (await caseEvents(s, caseId)).filter((e) => e.action === 'location.viewed').map((e) => ({ actor: [e.actor_type, e.actor_id], after: json(e.after), at: e.created_at }));

  it('GET /api/cases records a view by the operator of each case that has a location, and of no other', async () => {
    const before = (await views(located)).length;
    expect((await s.api('GET', '/api/cases', { token: operator })).status).toBe(200);
    const seen = (await views(located)).slice(before);
    const row = await s.ctx.db('cases').where({ id: located }).first();
    expect(seen).toEqual([{ actor: ['user', operatorId], after: { location_updated_at: row.location_at }, at: expect.stringMatching(ISO_TIME) }]);
    expect(await views(unlocated)).toEqual([]);
    // Closed cases keep their position (until retention): every located case in the list is recorded.
    const closedLocated = (await s.ctx.db('cases').whereNot({ status: 'active' }).whereNotNull('location_at').pluck('id')) as string[];
    expect(closedLocated.length).toBeGreaterThan(0);
    for (const id of closedLocated) expect((await views(id)).map((v) => v.actor)).toContainEqual(['user', operatorId]);
  });

  it('reading again within 10 minutes (the list, the case, a new position) records nothing more for the same staff member', async () => {
    const count = (await views(located)).length;
    for (let i = 0; i < 3; i++) expect((await s.api('GET', '/api/cases', { token: operator })).status).toBe(200);
    expect((await s.api('GET', `/api/cases/${located}`, { token: operator })).status).toBe(200);
    await share(located, 17.46, 78.46);
    expect((await s.api('GET', `/api/cases/${located}`, { token: await s.signIn('operator') })).status).toBe(200);
    expect((await views(located)).length).toBe(count);
  });

  it('another staff member is recorded separately, by GET /api/cases/{id} too', async () => {
    const count = (await views(located)).length;
    expect((await s.api('GET', `/api/cases/${located}`, { token: admin })).status).toBe(200);
    expect((await views(located)).slice(count).map((v) => v.actor)).toEqual([['user', adminId]]);
    expect((await s.api('GET', '/api/cases', { token: admin })).status).toBe(200);
    expect((await views(located)).length).toBe(count + 1);
  });

  it('after 10 minutes the next read is recorded again', async () => {
    const count = (await views(located)).length;
    const old = new Date(Date.now() - LOCATION_VIEW_EVERY_MS - 1000).toISOString();
    await s.ctx.db('case_events').where({ case_id: located, action: 'location.viewed', actor_id: operatorId }).update({ created_at: old });
    expect((await s.api('GET', '/api/cases', { token: operator })).status).toBe(200);
    expect((await views(located)).slice(count).map((v) => v.actor)).toEqual([['user', operatorId]]);
  });

  it('concurrent reads by one staff member record one entry', async () => {
    const caseId = await dispatchCase(s, operator, 4);
    await share(caseId, 17.3, 78.3);
    await Promise.all(Array.from({ length: 8 }, (_, i) => s.api('GET', i % 2 ? '/api/cases' : `/api/cases/${caseId}`, { token: operator })));
    expect((await views(caseId)).map((v) => v.actor)).toEqual([['user', operatorId]]);
  });

  it('a refused read records nothing', async () => {
    const caseId = await dispatchCase(s, operator, 5);
    await share(caseId, 17.2, 78.2);
    await expectNoWrite(s.ctx.db, () => s.api('GET', '/api/cases'));
    await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/cases/${caseId}`, { token: 'not-a-session' }));
    expect(await views(caseId)).toEqual([]);
  });

  it('admins see the reads in the timeline, with who read and which shared position', async () => {
    const res = await s.api('GET', `/api/cases/${located}/timeline`, { token: admin });
    const viewed = res.body.timeline.filter((e: any) => e.action === 'location.viewed');
    expect(viewed.length).toBeGreaterThanOrEqual(3);
    expect(viewed.map((e: any) => e.actor_id)).toEqual(expect.arrayContaining([operatorId, adminId]));
    for (const e of viewed) expect(e.after).toEqual({ location_updated_at: expect.stringMatching(ISO_TIME) });
  });
});
