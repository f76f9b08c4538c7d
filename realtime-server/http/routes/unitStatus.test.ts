import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkInvariants } from '../../reliability/invariants';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { ISO_TIME, ambulanceRow, caseEvents, dispatchCase, expectStatus, plateOf, trackingTokens, updateCase, userId } from '../../testing/dispatchHelpers';
import { DEMO } from '../../testing/demoAccounts';
import { useTestServer } from '../../testing/testServer';

/**
 * POST /api/ambulances/{id}/unit-status and the driver socket's `unit.status`: every forward
 * step, skipping, the refusals (repeated, backward, no open assignment: 409 changing nothing),
 * `at` kept within [previous step, receive time], what `cleared` changes, the driver link's
 * reach, and the races (two presses at once, a press racing a reassignment, a replayed
 * offline press). On SQLite, or on PostgreSQL with TEST_ENGINE=postgres (testEngine.ts).
 */
const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;
let operatorId: number;

beforeAll(async () => {
  operator = await s.signIn('operator');
  operatorId = await userId(s, DEMO.operator.email);
});

const json = (v: string | null) => (v == null ? null : JSON.parse(v));
const press = (ambulanceId: number, body: Record<string, unknown>, o: { token?: string; t?: string } = {}) =>
  s.api('POST', `/api/ambulances/${ambulanceId}/unit-status${o.t ? `?t=${o.t}` : ''}`, { token: o.t ? undefined : (o.token ?? operator), body });
const assignmentOf = (caseId: string) => s.ctx.db('assignments').where({ case_id: caseId }).orderBy('id', 'desc').first();
const caseDetail = async (caseId: string) => expectStatus(await s.api('GET', `/api/cases/${caseId}`, { token: operator }), 200, 'case detail').body;
const ambulanceDto = async (id: number) => (await s.api('GET', '/api/ambulances', { token: operator })).body.ambulances.find((a: any) => a.id === id);
/** Frees every ambulance the tests before left on active cases. */
async function closeAll() {
  for (const c of await s.ctx.db('cases').where({ status: 'active' })) expectStatus(await updateCase(s, operator, c.id, { status: 'closed' }), 200, 'close');
}
async function expectSound() {
  expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
}

describe('forward steps', () => {
  it('dispatched → en_route → on_scene → transporting → at_hospital → cleared, each time recorded, the ambulance following', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const start = (await assignmentOf(caseId))!;
    expect(start).toMatchObject({ status: 'dispatched', ambulance_id: 1, license_plate: plateOf(1), en_route_at: null });
    expect(await ambulanceDto(1)).toMatchObject({ status: 'busy', unit_status: 'dispatched', unit_status_since: start.dispatched_at });
    let previous = start.dispatched_at as string;
    for (const step of ['en_route', 'on_scene', 'transporting', 'at_hospital'] as const) {
      const sent = new Date().toISOString();
      const res = await press(1, { status: step });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, assignment: expect.objectContaining({ id: start.id, case_id: caseId, status: step }) });
      const at = res.body.assignment[`${step}_at`];
      expect(at).toMatch(ISO_TIME);
      expect(at >= sent && at >= previous).toBe(true);
      previous = at;
      expect(await ambulanceDto(1)).toMatchObject({ status: 'busy', unit_status: step, unit_status_since: at });
      expect((await caseDetail(caseId)).case).toMatchObject({ status: 'active', assignment: { id: start.id, status: step, [`${step}_at`]: at } });
    }
    const cleared = await press(1, { status: 'cleared' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.assignment).toMatchObject({ status: 'cleared', cleared_at: expect.stringMatching(ISO_TIME), cancelled_at: null });
    const a = cleared.body.assignment;
    expect([a.dispatched_at, a.en_route_at, a.on_scene_at, a.transporting_at, a.at_hospital_at, a.cleared_at]).toEqual(
      [a.dispatched_at, a.en_route_at, a.on_scene_at, a.transporting_at, a.at_hospital_at, a.cleared_at].slice().sort());
    await expectSound();
  });

  it('cleared frees the ambulance, resolves the case (closed at the press) and revokes the driver link', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    const { driver } = await trackingTokens(s, operator, caseId, 2);
    expectStatus(await press(2, { status: 'en_route' }, { t: driver }), 200, 'en route');
    expectStatus(await press(2, { status: 'on_scene' }, { t: driver }), 200, 'on scene');
    const res = await press(2, { status: 'cleared' }, { t: driver });
    expect(res.status).toBe(200);
    expect(await ambulanceRow(s, 2)).toMatchObject({ status: 'available' });
    expect(await ambulanceDto(2)).toMatchObject({ status: 'available', unit_status: 'available', unit_status_since: null });
    const { case: c } = await caseDetail(caseId);
    expect(c).toMatchObject({ status: 'resolved', closed_at: res.body.assignment.cleared_at, assignment: { status: 'cleared' } });
    // The link that cleared is no longer valid: no more steps, no more positions.
    expectError(await press(2, { status: 'cleared' }, { t: driver }), 403, 'This link is not valid for sending positions');
    expect((await s.api('POST', `/api/ambulances/2/position?t=${driver}`, { body: { latitude: 17.4, longitude: 78.5 } })).status).toBe(403);
    // On the timeline: the step by the driver link, then the case resolved, also by it.
    const tail = (await caseEvents(s, caseId)).slice(-2).map((e) => ({ action: e.action, actor: [e.actor_type, e.actor_id], before: json(e.before), after: json(e.after) }));
    expect(tail).toEqual([
      { action: 'unit.status', actor: ['driver', null], before: { status: 'on_scene' }, after: { status: 'cleared', at: res.body.assignment.cleared_at, assignment_id: res.body.assignment.id, ambulance_id: 2, license_plate: plateOf(2) } },
      { action: 'updated', actor: ['driver', null], before: { status: 'active', closed_at: null }, after: { status: 'resolved', closed_at: res.body.assignment.cleared_at } },
    ]);
    await expectSound();
  });

  it('a step may be skipped: on_scene → cleared (treated on scene); dispatched → on_scene', async () => {
    const caseId = await dispatchCase(s, operator, 3);
    const skip = await press(3, { status: 'on_scene' });
    expect(skip.body.assignment).toMatchObject({ status: 'on_scene', en_route_at: null, on_scene_at: expect.stringMatching(ISO_TIME) });
    const done = await press(3, { status: 'cleared' });
    expect(done.body.assignment).toMatchObject({ status: 'cleared', transporting_at: null, at_hospital_at: null, cleared_at: expect.stringMatching(ISO_TIME) });
    expect((await caseDetail(caseId)).case.status).toBe('resolved');
    await expectSound();
  });

  it('staff steps are on the timeline with the staff member', async () => {
    const caseId = await dispatchCase(s, operator, 4);
    const res = await press(4, { status: 'en_route' });
    const last = (await caseEvents(s, caseId)).at(-1);
    expect({ action: last.action, actor: [last.actor_type, last.actor_id], before: json(last.before), after: json(last.after) }).toEqual({
      action: 'unit.status', actor: ['user', operatorId], before: { status: 'dispatched' },
      after: { status: 'en_route', at: res.body.assignment.en_route_at, assignment_id: res.body.assignment.id, ambulance_id: 4, license_plate: plateOf(4) },
    });
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });
});

describe('refusals change nothing', () => {
  let caseId: string;
  beforeAll(async () => {
    await closeAll();
    caseId = await dispatchCase(s, operator, 5);
    expectStatus(await press(5, { status: 'transporting' }), 200, 'transporting');
  });

  it.each([
    ['a repeated step', 'transporting', `Ambulance ${plateOf(5)} is already transporting`],
    ['a step back', 'on_scene', `Ambulance ${plateOf(5)} is transporting; it cannot go back to on scene`],
    ['a step back to the start', 'en_route', `Ambulance ${plateOf(5)} is transporting; it cannot go back to en route`],
  ])('%s: 409', async (_what, status, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => press(5, { status })), 409, error);
  });

  it('an ambulance with no open assignment: 409 (available, and in maintenance)', async () => {
    expectError(await expectNoWrite(s.ctx.db, () => press(6, { status: 'en_route' })), 409, `Ambulance ${plateOf(6)} has no open assignment`);
    expectStatus(await s.api('PUT', '/api/ambulances/7', { token: operator, body: { status: 'maintenance' } }), 200, 'maintenance');
    expectError(await expectNoWrite(s.ctx.db, () => press(7, { status: 'cleared' })), 409, `Ambulance ${plateOf(7)} has no open assignment`);
    expectStatus(await s.api('PUT', '/api/ambulances/7', { token: operator, body: { status: 'available' } }), 200, 'available');
  });

  it.each([
    ['an unknown status', { status: 'lunch' }, 'status: must be one of en_route, on_scene, transporting, at_hospital, handover, cleared'],
    ['dispatched (the dispatch itself starts an assignment)', { status: 'dispatched' }, 'status: must be one of en_route, on_scene, transporting, at_hospital, handover, cleared'],
    ['no status', {}, 'status: must be one of en_route, on_scene, transporting, at_hospital, handover, cleared'],
    ['an `at` that is no time', { status: 'at_hospital', at: 'yesterday' }, 'at: must be an ISO 8601 date and time'],
  ])('%s: 400', async (_what, body, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => press(5, body)), 400, error);
  });

  it('an unknown ambulance: 404', async () => {
    expectError(await expectNoWrite(s.ctx.db, () => press(999, { status: 'en_route' })), 404, 'Ambulance details not found');
  });

  afterAll(async () => { expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close'); });
});

describe('`at`: when the crew pressed, kept within the previous step and the receive time', () => {
  beforeAll(closeAll);

  it('a future `at` is the receive time', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const sent = new Date().toISOString();
    const res = await press(1, { status: 'en_route', at: new Date(Date.now() + 3600_000).toISOString() });
    const answered = new Date().toISOString();
    expect(res.body.assignment.en_route_at >= sent && res.body.assignment.en_route_at <= answered).toBe(true);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it("an `at` before the previous step is the previous step's time (the dispatch, or the last step reached)", async () => {
    const caseId = await dispatchCase(s, operator, 2);
    const { dispatched_at: dispatchedAt } = (await assignmentOf(caseId))!;
    const early = await press(2, { status: 'en_route', at: '2020-01-01T00:00:00Z' });
    expect(early.body.assignment.en_route_at).toBe(dispatchedAt);
    // A skipped step's floor is the last recorded one.
    const skipped = await press(2, { status: 'transporting', at: '2020-01-01T00:00:00.000Z' });
    expect(skipped.body.assignment).toMatchObject({ on_scene_at: null, transporting_at: dispatchedAt });
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    await expectSound();
  });

  it('an `at` in between is kept as sent (a press queued offline), with an offset read as UTC', async () => {
    const caseId = await dispatchCase(s, operator, 3);
    await new Promise((r) => setTimeout(r, 30));
    const pressed = new Date(Date.now() - 10);
    const res = await press(3, { status: 'on_scene', at: pressed.toISOString().replace('Z', '+00:00') });
    expect(res.body.assignment.on_scene_at).toBe(pressed.toISOString());
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });
});

describe('what staff writes to the case do to its assignment', () => {
  beforeAll(closeAll);

  it.each([
    ['closed', 'dispatched', 'cancelled'],
    ['resolved', 'en_route', 'cancelled'],
    ['pending', 'dispatched', 'cancelled'],
    ['closed', 'on_scene', 'cleared'],
    ['resolved', 'at_hospital', 'cleared'],
    ['pending', 'transporting', 'cleared'],
  ])('setting the case %s when the unit is %s ends the assignment %s and frees the ambulance', async (caseStatus, step, ended) => {
    const caseId = await dispatchCase(s, operator, 4);
    if (step !== 'dispatched') expectStatus(await press(4, { status: step }), 200, step);
    const res = await updateCase(s, operator, caseId, { status: caseStatus });
    expect(res.status).toBe(200);
    expect(res.body.case.assignment).toMatchObject({ status: ended, [`${ended}_at`]: expect.stringMatching(ISO_TIME) });
    expect(await ambulanceDto(4)).toMatchObject({ status: 'available', unit_status: 'available' });
    const last = (await caseEvents(s, caseId)).at(-1);
    expect([json(last.before).unit_status, json(last.after).unit_status]).toEqual([step, ended]);
    // Nothing more to press.
    expectError(await press(4, { status: 'cleared' }), 409, `Ambulance ${plateOf(4)} has no open assignment`);
    await expectSound();
  });

  it('reassignment cancels the old assignment and starts a new one; GET /api/cases/{id} lists both', async () => {
    const caseId = await dispatchCase(s, operator, 5);
    expectStatus(await press(5, { status: 'en_route' }), 200, 'en route');
    const res = await updateCase(s, operator, caseId, { ambulance_id: 6 });
    expect(res.status).toBe(200);
    const { case: c, assignments } = await caseDetail(caseId);
    expect(assignments).toEqual([
      expect.objectContaining({ ambulance_id: 5, license_plate: plateOf(5), status: 'cancelled', en_route_at: expect.stringMatching(ISO_TIME), cancelled_at: expect.stringMatching(ISO_TIME) }),
      expect.objectContaining({ ambulance_id: 6, license_plate: plateOf(6), status: 'dispatched', en_route_at: null, cancelled_at: null }),
    ]);
    expect(c.assignment).toEqual(assignments[1]);
    expect(assignments[0].cancelled_at <= assignments[1].dispatched_at).toBe(true);
    expect(await ambulanceDto(5)).toMatchObject({ status: 'available', unit_status: 'available' });
    expect(await ambulanceDto(6)).toMatchObject({ status: 'busy', unit_status: 'dispatched' });
    // The old ambulance has nothing to press; the new one steps on its own assignment.
    expectError(await press(5, { status: 'on_scene' }), 409, `Ambulance ${plateOf(5)} has no open assignment`);
    expect((await press(6, { status: 'on_scene' })).body.assignment).toMatchObject({ id: assignments[1].id, status: 'on_scene' });
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    await expectSound();
  });

  it('reopening a closed case starts a new assignment; the closed one keeps its times', async () => {
    const caseId = await dispatchCase(s, operator, 7);
    expectStatus(await press(7, { status: 'on_scene' }), 200, 'on scene');
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    expectStatus(await updateCase(s, operator, caseId, { status: 'active' }), 200, 'reopen');
    const { assignments } = await caseDetail(caseId);
    expect(assignments.map((a: any) => [a.ambulance_id, a.status])).toEqual([[7, 'cleared'], [7, 'dispatched']]);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it('deleting a case with an open assignment frees its ambulance (and removes its assignments)', async () => {
    const admin = await s.signIn('admin');
    const caseId = await dispatchCase(s, operator, 8);
    expectStatus(await press(8, { status: 'on_scene' }), 200, 'on scene');
    expectStatus(await s.api('DELETE', `/api/cases/${caseId}`, { token: admin }), 200, 'delete');
    expect(await ambulanceDto(8)).toMatchObject({ status: 'available', unit_status: 'available' });
    expect(await s.ctx.db('assignments').where({ case_id: caseId })).toEqual([]);
    expectError(await press(8, { status: 'cleared' }), 409, `Ambulance ${plateOf(8)} has no open assignment`);
    // Free again: the next dispatch takes it.
    const next = await dispatchCase(s, operator, 8);
    expectStatus(await updateCase(s, operator, next, { status: 'closed' }), 200, 'close');
    await expectSound();
  });

  it('an ambulance on an open assignment cannot be put in maintenance or made available', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    expectStatus(await press(1, { status: 'en_route' }), 200, 'en route');
    for (const status of ['maintenance', 'available']) {
      expectError(await expectNoWrite(s.ctx.db, () => s.api('PUT', '/api/ambulances/1', { token: operator, body: { status } })), 409,
        `Ambulance ${plateOf(1)} is on an active case; close or reassign the case first`);
    }
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });
});

describe('the driver link', () => {
  let caseId: string;
  let driver: string;
  let viewer: string;
  beforeAll(async () => {
    await closeAll();
    caseId = await dispatchCase(s, operator, 2);
    ({ driver, viewer } = await trackingTokens(s, operator, caseId, 2));
  });

  it("may step its own ambulance's assignment, on the timeline as the driver", async () => {
    const res = await press(2, { status: 'en_route' }, { t: driver });
    expect(res).toMatchObject({ status: 200, body: { ok: true, assignment: { case_id: caseId, ambulance_id: 2, status: 'en_route' } } });
    expect((await caseEvents(s, caseId)).at(-1)).toMatchObject({ action: 'unit.status', actor_type: 'driver', actor_id: null });
  });

  it("may not step another ambulance, and a viewer's link may step none", async () => {
    const other = await dispatchCase(s, operator, 3);
    expectError(await expectNoWrite(s.ctx.db, () => press(3, { status: 'en_route' }, { t: driver })), 403, 'This link is not valid for sending positions');
    expectError(await expectNoWrite(s.ctx.db, () => press(2, { status: 'on_scene' }, { t: viewer })), 403, 'This link is not valid for sending positions');
    expectError(await expectNoWrite(s.ctx.db, () => press(2, { status: 'on_scene' }, { t: 'x'.repeat(43) })), 403, 'This link is not valid for sending positions');
    expectStatus(await updateCase(s, operator, other, { status: 'closed' }), 200, 'close');
  });

  it('on the socket: `unit.status` acknowledges {ok: true, assignment} and every refusal as {ok: false, error}', async () => {
    const sock = await s.socket({ driverToken: driver });
    const send = (body: unknown) => sock.timeout(2000).emitWithAck('unit.status', body as any);
    expect(await send({ status: 'on_scene' })).toEqual({ ok: true, assignment: expect.objectContaining({ case_id: caseId, status: 'on_scene', on_scene_at: expect.stringMatching(ISO_TIME) }) });
    expect(await expectNoWrite(s.ctx.db, () => send({ status: 'on_scene' }))).toEqual({ ok: false, error: `Ambulance ${plateOf(2)} is already on scene` });
    expect(await expectNoWrite(s.ctx.db, () => send({ status: 'en_route' }))).toEqual({ ok: false, error: `Ambulance ${plateOf(2)} is on scene; it cannot go back to en route` });
    expect(await expectNoWrite(s.ctx.db, () => send({ status: 'parked' }))).toEqual({ ok: false, error: 'status: must be one of en_route, on_scene, transporting, at_hospital, handover, cleared' });
    expect(await expectNoWrite(s.ctx.db, () => send('on_scene'))).toEqual({ ok: false, error: expect.stringMatching(/^status: /) });
    const staff = await s.socket({ token: operator });
    expect(await expectNoWrite(s.ctx.db, () => staff.timeout(2000).emitWithAck('unit.status', { status: 'cleared' }))).toEqual({ ok: false, error: "Only a driver link may change its unit's status" });
    expect(await send({ status: 'cleared' })).toMatchObject({ ok: true, assignment: { status: 'cleared' } });
    expect((await caseDetail(caseId)).case.status).toBe('resolved');
    sock.disconnect();
    staff.disconnect();
  });

  it('a link of a case staff closed may step nothing', async () => {
    const closedCase = await dispatchCase(s, operator, 4);
    const { driver: old } = await trackingTokens(s, operator, closedCase, 4);
    expectStatus(await updateCase(s, operator, closedCase, { status: 'closed' }), 200, 'close');
    const next = await dispatchCase(s, operator, 4);
    // Ambulance 4 is on another case now: the old case's link does not reach its assignment.
    expectError(await expectNoWrite(s.ctx.db, () => press(4, { status: 'en_route' }, { t: old })), 403, 'This link is not valid for sending positions');
    expectStatus(await updateCase(s, operator, next, { status: 'closed' }), 200, 'close');
  });
});

describe('live events', () => {
  beforeAll(closeAll);

  it('case.updated and ambulance.updated carry the step with new versions', async () => {
    const caseId = await dispatchCase(s, operator, 5);
    const before = (await caseDetail(caseId)).case;
    const ambBefore = await ambulanceDto(5);
    const staff = await s.socket({ token: operator });
    const cases: any[] = [];
    const ambulances: any[] = [];
    staff.on('case.updated', (c: any) => { if (c.id === caseId) cases.push(c); });
    staff.on('ambulance.updated', (a: any) => { if (a.id === 5) ambulances.push(a); });
    const res = await press(5, { status: 'en_route' });
    await vi.waitFor(() => { expect(cases.length).toBe(1); expect(ambulances.length).toBe(1); });
    expect(cases[0]).toMatchObject({ version: before.version + 1, assignment: { status: 'en_route', en_route_at: res.body.assignment.en_route_at } });
    expect(ambulances[0]).toMatchObject({ version: ambBefore.version + 1, status: 'busy', unit_status: 'en_route', unit_status_since: res.body.assignment.en_route_at });
    expect(cases[0]).toEqual((await caseDetail(caseId)).case);

    await press(5, { status: 'cleared' });
    await vi.waitFor(() => { expect(cases.length).toBe(2); expect(ambulances.length).toBe(2); });
    // The step and the case resolved: two versions, one event with the last.
    expect(cases[1]).toMatchObject({ version: before.version + 3, status: 'resolved', assignment: { status: 'cleared' } });
    expect(ambulances[1]).toMatchObject({ version: ambBefore.version + 2, status: 'available', unit_status: 'available', unit_status_since: null });
    staff.disconnect();
  });
});

describe('races', () => {
  beforeAll(closeAll);

  it('two presses of the same step at once: one 200, one 409, one step recorded', async () => {
    for (const step of ['en_route', 'cleared']) {
      const caseId = await dispatchCase(s, operator, 6);
      const { driver } = await trackingTokens(s, operator, caseId, 6);
      if (step === 'cleared') expectStatus(await press(6, { status: 'on_scene' }), 200, 'on scene');
      // The driver's and a dispatcher's press; for cleared two dispatchers' (clearing revokes the link, so a driver losing that race gets 403).
      const answers = await Promise.all([press(6, { status: step }, step === 'cleared' ? {} : { t: driver }), press(6, { status: step })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect((await caseEvents(s, caseId)).filter((e) => e.action === 'unit.status' && json(e.after).status === step)).toHaveLength(1);
      if (step !== 'cleared') expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
      await expectSound();
    }
  });

  it('two different steps at once: both may land only in order; the times never decrease', async () => {
    const caseId = await dispatchCase(s, operator, 7);
    const answers = await Promise.all([press(7, { status: 'en_route' }), press(7, { status: 'on_scene' }), press(7, { status: 'transporting' })]);
    for (const r of answers) expect([200, 409]).toContain(r.status);
    const a = (await assignmentOf(caseId))!;
    expect(a.status).toBe('transporting');
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    await expectSound();
  });

  it("a driver's press racing a reassignment: the step lands on the old assignment before it is cancelled, or is refused; never on the new one", async () => {
    for (let i = 0; i < 6; i++) {
      const caseId = await dispatchCase(s, operator, 1);
      const { driver } = await trackingTokens(s, operator, caseId, 1);
      const [step, moved] = await Promise.all([press(1, { status: 'en_route' }, { t: driver }), updateCase(s, operator, caseId, { ambulance_id: 2 })]);
      expect(moved.status).toBe(200);
      expect([200, 403, 409]).toContain(step.status);
      const { assignments } = await caseDetail(caseId);
      expect(assignments.map((x: any) => [x.ambulance_id, x.status])).toEqual([[1, 'cancelled'], [2, 'dispatched']]);
      expect(assignments[0].en_route_at != null).toBe(step.status === 200);
      expect(assignments[1].en_route_at).toBeNull();
      expect(await ambulanceDto(1)).toMatchObject({ status: 'available', unit_status: 'available' });
      expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
      await expectSound();
    }
  });

  it('a replayed offline press (the same step again, as a queue retries it) is a 409 that changes nothing', async () => {
    const caseId = await dispatchCase(s, operator, 3);
    const { driver } = await trackingTokens(s, operator, caseId, 3);
    const queued = { status: 'on_scene', at: new Date(Date.now() - 5).toISOString() };
    const first = await press(3, queued, { t: driver });
    expect(first.status).toBe(200);
    expectError(await expectNoWrite(s.ctx.db, () => press(3, queued, { t: driver })), 409, `Ambulance ${plateOf(3)} is already on scene`);
    // A queue replayed in order: an earlier step arriving after a later one is refused too.
    expectError(await expectNoWrite(s.ctx.db, () => press(3, { status: 'en_route', at: queued.at }, { t: driver })), 409, `Ambulance ${plateOf(3)} is on scene; it cannot go back to en route`);
    expect((await assignmentOf(caseId))!.on_scene_at).toBe(first.body.assignment.on_scene_at);
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    await expectSound();
  });
});

describe('an ambulance taken off an active case, then deleted', () => {
  beforeAll(closeAll);

  it('taking the ambulance off (the case stays active) cancels the assignment even after the scene: it is no close', async () => {
    const caseId = await dispatchCase(s, operator, 5);
    expectStatus(await press(5, { status: 'on_scene' }), 200, 'on scene');
    const res = await updateCase(s, operator, caseId, { ambulance_id: null });
    expect(res.body.case).toMatchObject({ status: 'active', ambulance_id: null, assignment: { ambulance_id: 5, status: 'cancelled' } });
    expect(await ambulanceDto(5)).toMatchObject({ status: 'available', unit_status: 'available' });
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it("deleting it later changes the case's current assignment as a recorded change (a new version and an event)", async () => {
    const admin = await s.signIn('admin');
    const caseId = await dispatchCase(s, operator, 8);
    const off = expectStatus(await updateCase(s, operator, caseId, { ambulance_id: null }), 200, 'take off').body.case;
    const staff = await s.socket({ token: operator });
    const heard = new Promise<any>((resolve) => staff.on('case.updated', (c: any) => { if (c.id === caseId) resolve(c); }));
    expectStatus(await s.api('DELETE', '/api/ambulances/8', { token: admin }), 200, 'delete ambulance');
    const now = (await caseDetail(caseId)).case;
    expect(now).toMatchObject({ version: off.version + 1, assignment: { ambulance_id: null, license_plate: plateOf(8), status: 'cancelled' } });
    expect(await heard).toEqual(now);
    staff.disconnect();
    await expectSound();
  });
});
