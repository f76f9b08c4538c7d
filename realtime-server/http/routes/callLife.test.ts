import { beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../../reliability/invariants';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { ISO_TIME, ambulanceRow, caseEvents, dispatchCase, expectStatus, plateOf, updateCase, userId } from '../../testing/dispatchHelpers';
import { DEMO } from '../../testing/demoAccounts';
import { useTestServer } from '../../testing/testServer';

/**
 * The rest of a call's life: its priority (derived from the type or given), when the call came
 * in, the queue of waiting (pending) calls and their dispatch, time corrections, and what
 * GET /api/config and GET /api/cases/{id} answer about it.
 */
const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' } });
let operator: string;
let operatorId: number;

beforeAll(async () => {
  operator = await s.signIn('operator');
  operatorId = await userId(s, DEMO.operator.email);
  // The demo fleet joined a day ago (the seed adds it at the server's start): corrections move times up to an hour back.
  await s.ctx.db('ambulances').update({ created_at: new Date(Date.now() - 86_400_000).toISOString() });
});

const json = (v: string | null) => (v == null ? null : JSON.parse(v));
const form = (extra: Record<string, unknown> = {}) => ({ patientName: 'Life Call', email: 'life@example.com', description: 'Caller on the line', ...extra });
const create = (extra: Record<string, unknown> = {}) => s.api('POST', '/api/cases', { token: operator, body: form(extra) });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
async function closeAll() {
  for (const c of await s.ctx.db('cases').where({ status: 'active' })) expectStatus(await updateCase(s, operator, c.id, { status: 'closed' }), 200, 'close');
}
const sound = async () => expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);

describe('priority', () => {
  it.each([
    ['Heart Attack', 1], ['Stroke', 1], ['stroke ', 1],
    ['Accident', 2], ['Injury', 2], ['Medical Emergency', 2],
    ['Fire', 3], ['Hospitalization', 3], [null, 3],
  ])('derived from the type %s: %i', async (caseType, priority) => {
    const res = await create({ caseType });
    expect(res.status).toBe(201);
    expect(res.body.case.priority).toBe(priority);
  });

  it('given explicitly, it wins over the type (a number or a digit)', async () => {
    expect((await create({ caseType: 'Heart Attack', priority: 4 })).body.case.priority).toBe(4);
    expect((await create({ caseType: 'Fire', priority: '1' })).body.case.priority).toBe(1);
    const res = await s.api('POST', '/live-location', { token: operator, body: { to: 'p@example.com', patientName: 'P', description: 'x', caseType: 'Stroke', priority: 2 } });
    expect(res.body.case.priority).toBe(2);
  });

  it.each([[0], [5], [2.5], ['high'], ['']])('refuses %j with 400 and writes nothing', async (priority) => {
    expectError(await expectNoWrite(s.ctx.db, () => create({ priority })), 400, 'priority: must be 1, 2, 3 or 4');
  });

  it('PUT changes it, on the timeline; the same priority again is no change', async () => {
    const id = (await create({ caseType: 'Injury' })).body.case.id;
    const res = await updateCase(s, operator, id, { priority: 1 });
    expect(res.body.case.priority).toBe(1);
    const last = (await caseEvents(s, id)).at(-1);
    expect({ action: last.action, actor: [last.actor_type, last.actor_id], before: json(last.before), after: json(last.after) })
      .toEqual({ action: 'updated', actor: ['user', operatorId], before: { priority: 2 }, after: { priority: 1 } });
    await expectNoWrite(s.ctx.db, () => updateCase(s, operator, id, { priority: '1' }));
    expectError(await expectNoWrite(s.ctx.db, () => updateCase(s, operator, id, { priority: 9 })), 400, 'priority: must be 1, 2, 3 or 4');
    await sound();
  });
});

describe('call_received_at', () => {
  it('absent: the creation time', async () => {
    const before = new Date().toISOString();
    const { case: c } = (await create()).body;
    expect(c.call_received_at).toMatch(ISO_TIME);
    expect(c.call_received_at >= before && c.call_received_at <= c.created_at).toBe(true);
  });

  it('given: kept (in UTC), and on the created entry', async () => {
    const at = new Date(Date.now() - 4 * 60_000);
    const res = await create({ call_received_at: at.toISOString().replace('Z', '+00:00') });
    expect(res.body.case.call_received_at).toBe(at.toISOString());
    expect(json((await caseEvents(s, res.body.case.id))[0].after)).toMatchObject({ call_received_at: at.toISOString(), priority: 3 });
  });

  it('a little ahead of the server (clock skew within 5 s) is read as now', async () => {
    const res = await create({ call_received_at: new Date(Date.now() + 2000).toISOString() });
    expect(res.status).toBe(201);
    expect(res.body.case.call_received_at <= res.body.case.created_at).toBe(true);
  });

  it.each([
    ['in the future', () => new Date(Date.now() + 60_000).toISOString(), 'call_received_at: must not be in the future'],
    ['more than an hour back', () => ago(3600_000 + 60_000), 'call_received_at: must be within the last hour'],
    ['no time', () => 'this morning', 'call_received_at: must be an ISO 8601 date and time'],
  ])('refuses a time %s with 400 and writes nothing', async (_what, at, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => create({ call_received_at: at() })), 400, error);
  });
});

describe('the queue: pending calls', () => {
  beforeAll(closeAll);

  it('POST /api/cases with status pending and no ambulance: a waiting call with its priority, no assignment', async () => {
    const res = await create({ status: 'pending', caseType: 'Stroke' });
    expect(res.status).toBe(201);
    expect(res.body.case).toMatchObject({ status: 'pending', priority: 1, ambulance_id: null, assignment: null });
    expect(await s.ctx.db('assignments').where({ case_id: res.body.case.id })).toEqual([]);
    expect(json((await caseEvents(s, res.body.case.id))[0].after)).toMatchObject({ status: 'pending', ambulance_id: null, priority: 1 });
  });

  it('refuses pending with an ambulance (400, nothing written)', async () => {
    expectError(await expectNoWrite(s.ctx.db, () => create({ status: 'pending', ambulance_id: 1 })), 400,
      'status: a pending call waits without an ambulance; leave the ambulance out or make it active');
  });

  it('PUT {ambulance_id, status: active} dispatches it: an assignment starts, the ambulance is busy', async () => {
    const id = (await create({ status: 'pending' })).body.case.id;
    const res = await updateCase(s, operator, id, { ambulance_id: 2, status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.case).toMatchObject({ status: 'active', ambulance_id: 2, assignment: { ambulance_id: 2, license_plate: plateOf(2), status: 'dispatched', dispatched_at: expect.stringMatching(ISO_TIME) } });
    expect((await ambulanceRow(s, 2)).status).toBe('busy');
    const [last, told] = (await caseEvents(s, id)).slice(-2);
    expect([json(last.before), json(last.after)]).toEqual([{ status: 'pending', ambulance_id: null }, { status: 'active', ambulance_id: 2 }]);
    // The dispatch is told to the patient and the crew (dispatchNotices.test.ts has the mails).
    expect([told.action, json(told.after)]).toEqual(['tracking', { ambulance_id: 2, patient_email: 'life@example.com', driver_email: 'driver2@lifeline.test' }]);
    await sound();
  });

  it('dispatch stays atomic: two waiting calls taking one ambulance at once, one wins, the other stays pending untouched', async () => {
    const [a, b] = [(await create({ status: 'pending' })).body.case, (await create({ status: 'pending' })).body.case];
    const answers = await Promise.all([a, b].map((c) => updateCase(s, operator, c.id, { ambulance_id: 3, status: 'active' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.status === 409)!;
    expectError(loser, 409, `Ambulance ${plateOf(3)} is not available; choose another ambulance`);
    const lost = answers[0].status === 409 ? a : b;
    expect((await s.api('GET', `/api/cases/${lost.id}`, { token: operator })).body).toEqual({ case: lost, assignments: [] });
    expect(await s.ctx.db('assignments').where({ ambulance_id: 3 }).whereNotIn('status', ['cleared', 'cancelled'])).toHaveLength(1);
    await sound();
  });

  it('a busy ambulance cannot take a waiting call (409, nothing written)', async () => {
    const id = (await create({ status: 'pending' })).body.case.id;
    expectError(await expectNoWrite(s.ctx.db, () => updateCase(s, operator, id, { ambulance_id: 2, status: 'active' })), 409,
      `Ambulance ${plateOf(2)} is not available; choose another ambulance`);
  });
});

describe('corrections', () => {
  let caseId: string;
  let assignmentId: number;
  let enRouteAt: string;
  const correct = (body: Record<string, unknown>, id = assignmentId, c = caseId) =>
    s.api('POST', `/api/cases/${c}/assignments/${id}/corrections`, { token: operator, body });
  beforeAll(async () => {
    await closeAll();
    const res = await create({ ambulance_id: 4, call_received_at: ago(20 * 60_000) });
    caseId = res.body.case.id;
    assignmentId = res.body.case.assignment.id;
    enRouteAt = expectStatus(await s.api('POST', '/api/ambulances/4/unit-status', { token: operator, body: { status: 'en_route' } }), 200, 'en route').body.assignment.en_route_at;
  });

  it('moves a recorded time, with the reason and who on the timeline, and a case.updated', async () => {
    const before = (await s.api('GET', `/api/cases/${caseId}`, { token: operator })).body.case;
    const at = ago(10 * 60_000);
    const res = await correct({ step: 'dispatched', at, reason: 'radio log: dispatched at 10:02' });
    expect(res).toMatchObject({ status: 200, body: { assignment: { id: assignmentId, dispatched_at: at, status: 'en_route' } } });
    const last = (await caseEvents(s, caseId)).at(-1);
    expect({ action: last.action, actor: [last.actor_type, last.actor_id], before: json(last.before), after: json(last.after) }).toEqual({
      action: 'unit.corrected', actor: ['user', operatorId],
      before: { dispatched_at: before.assignment.dispatched_at }, after: { dispatched_at: at, reason: 'radio log: dispatched at 10:02', assignment_id: assignmentId },
    });
    const after = (await s.api('GET', `/api/cases/${caseId}`, { token: operator })).body.case;
    expect(after).toMatchObject({ version: before.version + 1, assignment: { dispatched_at: at } });
    await sound();
  });

  it.each([
    ['before the step before it', () => ({ step: 'en_route', at: ago(15 * 60_000) }), /^at: must not be before the step before it/],
    ['before the call came in', () => ({ step: 'dispatched', at: ago(30 * 60_000) }), /^at: must not be before the call came in/],
    ['after the step that follows it', () => ({ step: 'dispatched', at: new Date(Date.parse(enRouteAt) + 1).toISOString() }), /^at: must not be after the step that follows it/],
    ['in the future', () => ({ step: 'en_route', at: new Date(Date.now() + 60_000).toISOString() }), 'at: must not be in the future'],
    ['of a step never reached', () => ({ step: 'on_scene', at: ago(1000) }), 'step: this assignment never reached on scene'],
  ])('out of order (%s): 422, nothing changes', async (_what, body, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => correct({ ...body(), reason: 'try' })), 422, error);
  });

  it.each([
    ['no reason', { reason: undefined }, 'reason: required'],
    ['a blank reason', { reason: '   ' }, 'reason: required: say why the time is corrected'],
    ['an unknown step', { step: 'cancelled' }, /^step: must be one of dispatched, en_route/],
    ['no time', { at: 'soon' }, 'at: must be an ISO 8601 date and time'],
  ])('%s: 400, nothing changes', async (_what, extra, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => correct({ step: 'en_route', at: ago(5 * 60_000), reason: 'log', ...extra })), 400, error);
  });

  it("an assignment of another case, or none: 404", async () => {
    const other = (await create()).body.case.id;
    expectError(await expectNoWrite(s.ctx.db, () => correct({ step: 'dispatched', at: ago(60_000), reason: 'x' }, assignmentId, other)), 404, 'Assignment not found');
    expectError(await expectNoWrite(s.ctx.db, () => correct({ step: 'dispatched', at: ago(60_000), reason: 'x' }, 99999)), 404, 'Assignment not found');
  });

  it('an ended assignment may be corrected too', async () => {
    expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
    const res = await correct({ step: 'en_route', at: ago(9 * 60_000), reason: 'crew report' });
    expect(res.status).toBe(200);
    expect(res.body.assignment).toMatchObject({ status: 'cancelled', en_route_at: expect.stringMatching(ISO_TIME) });
    await sound();
  });
});

describe('corrections keep a call\'s times true (issue 26, items 7 and 8)', () => {
  const correct = (caseId: string, assignmentId: number, body: Record<string, unknown>) =>
    s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/corrections`, { token: operator, body: { reason: 'radio log', ...body } });
  const setStep = async (ambulanceId: number, status: string, at?: string) =>
    expectStatus(await s.api('POST', `/api/ambulances/${ambulanceId}/unit-status`, { token: operator, body: { status, ...(at ? { at } : {}) } }), 200, status).body.assignment;
  /** A call of `ambulanceId` received `receivedAgo` ms back: answers its case id and assignment id. */
  async function call(ambulanceId: number, receivedAgo: number) {
    const c = expectStatus(await create({ ambulance_id: ambulanceId, call_received_at: ago(receivedAgo) }), 201, 'create').body.case;
    return { caseId: c.id as string, assignmentId: c.assignment.id as number };
  }
  const min = 60_000;
  beforeAll(closeAll);

  it('a step the call never reached (treated on scene: no en route, transport or hospital) cannot be given a time: 422, nothing changes', async () => {
    // Dispatched 8 min back, on scene 5, cleared now: each time asked for lies in order between them.
    const { caseId, assignmentId } = await call(6, 10 * min);
    expectStatus(await correct(caseId, assignmentId, { step: 'dispatched', at: ago(8 * min) }), 200, 'dispatch back');
    await setStep(6, 'on_scene', ago(5 * min));
    await setStep(6, 'cleared');
    for (const [step, at] of [['en_route', ago(7 * min)], ['transporting', ago(3 * min)], ['at_hospital', ago(2 * min)]]) {
      expectError(await expectNoWrite(s.ctx.db, () => correct(caseId, assignmentId, { step, at })), 422, `step: this assignment never reached ${step.replace('_', ' ')}`);
    }
    await sound();
  });

  describe('one ambulance, one call at a time', () => {
    // Ambulance 7's first call: dispatched 45 min back, on scene 40, cleared 30 (the case resolved then); its next dispatched now.
    let first: { caseId: string; assignmentId: number };
    let next: { caseId: string; assignmentId: number };
    let firstDispatched: string;
    let firstCleared: string;
    beforeAll(async () => {
      first = await call(7, 50 * min);
      firstDispatched = expectStatus(await correct(first.caseId, first.assignmentId, { step: 'dispatched', at: ago(45 * min) }), 200, 'dispatch back').body.assignment.dispatched_at;
      await setStep(7, 'on_scene', ago(40 * min));
      firstCleared = (await setStep(7, 'cleared', ago(30 * min))).cleared_at;
      next = await call(7, 35 * min);
    });

    it("a dispatch moved into the ambulance's previous call: 422 naming it, nothing changes; just after it is fine", async () => {
      expectError(await expectNoWrite(s.ctx.db, () => correct(next.caseId, next.assignmentId, { step: 'dispatched', at: ago(33 * min) })), 422,
        `at: TS09 EA 1007 was on another call then: its previous assignment (case ${first.caseId.slice(0, 8)}) ran from ${firstDispatched} to ${firstCleared}; an ambulance serves one call at a time`);
      expect(await correct(next.caseId, next.assignmentId, { step: 'dispatched', at: firstCleared })).toMatchObject({ status: 200 });
      await sound();
    });

    it("a clear moved into the ambulance's next call: 422 naming it, nothing changes", async () => {
      const nextDispatched = (await s.api('GET', `/api/cases/${next.caseId}`, { token: operator })).body.case.assignment.dispatched_at;
      expectError(await expectNoWrite(s.ctx.db, () => correct(first.caseId, first.assignmentId, { step: 'cleared', at: ago(20 * min) })), 422,
        `at: TS09 EA 1007 was on another call then: its next assignment (case ${next.caseId.slice(0, 8)}) ran from ${nextDispatched} to now; an ambulance serves one call at a time`);
      await sound();
    });

    it("a corrected clear of the call's last assignment moves the case's closed_at with it, on the timeline", async () => {
      const at = ago(32 * min);
      expect(await correct(first.caseId, first.assignmentId, { step: 'cleared', at })).toMatchObject({ status: 200, body: { assignment: { cleared_at: at } } });
      const c = (await s.api('GET', `/api/cases/${first.caseId}`, { token: operator })).body.case;
      expect(c).toMatchObject({ status: 'resolved', closed_at: at });
      const last = (await caseEvents(s, first.caseId)).at(-1);
      expect([last.action, json(last.before), json(last.after)]).toEqual([
        'unit.corrected', { cleared_at: firstCleared, closed_at: firstCleared }, { cleared_at: at, closed_at: at, reason: 'radio log', assignment_id: first.assignmentId },
      ]);
      await sound();
    });
  });

  it('a dispatch moved before the ambulance was added to the fleet: 422, nothing changes', async () => {
    const admin = await s.signIn('admin');
    const added = expectStatus(await s.api('POST', '/api/ambulances', { token: admin, body: { license_plate: 'TS10 NEW 0001' } }), 201, 'add').body.ambulance;
    const { created_at: addedAt } = await ambulanceRow(s, added.id);
    const { caseId, assignmentId } = await call(added.id, 30 * min);
    expectError(await expectNoWrite(s.ctx.db, () => correct(caseId, assignmentId, { step: 'dispatched', at: ago(20 * min) })), 422,
      `at: must not be before TS10 NEW 0001 was added to the fleet (${addedAt})`);
    await sound();
  });
});

describe('GET /api/config and GET /api/cases/{id}', () => {
  it('config: the priorities with their NHS defaults and the turnout target', async () => {
    const res = await s.api('GET', '/api/config');
    expect(res.body).toEqual({
      tileUrl: expect.any(String), etaSpeedKmh: expect.any(Number), turnout_s: 60, board_recent_hours: 12,
      priority_needs: { 1: 'als', 2: 'als', 3: 'bls', 4: 'bls' }, clock_stops: { 1: 'first', 2: 'transport', 3: 'transport', 4: 'transport' },
      handover_targets: [15, 30, 45, 60], prealert_ack_after_s: 180,
      // The arrival model in force: the defaults until 20 trips calibrate it (docs/user-guide.md "How arrival is estimated").
      eta_model: { road_factor: 1.3, speed_kmh: 30 },
      stale_after_s: { driver: 60, staff: 120, osmand: 120, owntracks: 120 }, centre: { latitude: 17.385, longitude: 78.4867 },
      priorities: [
        { priority: 1, label: 'Life-threatening', target_s: 900, mean_target_s: 420, queue_alert_s: 60 },
        { priority: 2, label: 'Emergency', target_s: 2400, mean_target_s: 1080, queue_alert_s: 120 },
        { priority: 3, label: 'Urgent', target_s: 7200, mean_target_s: null, queue_alert_s: 300 },
        { priority: 4, label: 'Less urgent', target_s: 10800, mean_target_s: null, queue_alert_s: 600 },
      ],
    });
  });

  it('a case: {case, assignments}; 404 for an unknown one', async () => {
    await closeAll();
    const id = await dispatchCase(s, operator, 5);
    const res = await s.api('GET', `/api/cases/${id}`, { token: operator });
    expect(res.body).toEqual({ case: expect.objectContaining({ id, assignment: res.body.assignments[0] }), assignments: [expect.objectContaining({ case_id: id, ambulance_id: 5, status: 'dispatched' })] });
    expectError(await s.api('GET', '/api/cases/00000000-0000-4000-8000-000000000000', { token: operator }), 404, 'Case not found');
    expectStatus(await updateCase(s, operator, id, { status: 'closed' }), 200, 'close');
  });
});
