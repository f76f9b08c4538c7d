import { beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../../reliability/invariants';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { DEMO } from '../../testing/demoAccounts';
import {
  ISO_TIME, ambulanceRow, caseEvents, expectStatus, locationToken, plateOf, rememberLocationLink, trackingTokens, updateCase, userId,
} from '../../testing/dispatchHelpers';
import { collect, useTestServer } from '../../testing/testServer';

/**
 * POST /api/cases/{id}/dispatch (issue 25, "Dispatch from anywhere a call is seen"): a waiting
 * call takes a free unit, or a unit diverted from a less urgent call that goes back to the queue.
 * Every refusal writes nothing; two dispatchers taking one unit at once leave one winner.
 * On SQLite, or on PostgreSQL with TEST_ENGINE=postgres (transactions really concurrent there).
 */
const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;
let admin: string;
let operatorId: number;
beforeAll(async () => {
  [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  operatorId = await userId(s, DEMO.operator.email);
});

type Body = Record<string, unknown>;
const json = (v: string | null) => (v == null ? null : JSON.parse(v));
/** The call's last 'updated' entry: the dispatch's own (the 'tracking' entry of the mails follows it). */
const lastUpdate = async (caseId: string) => (await caseEvents(s, caseId)).filter((e) => e.action === 'updated').at(-1);
const OPEN = ['dispatched', 'en_route', 'on_scene', 'transporting', 'at_hospital'];

/** POST /api/cases as the operator: a waiting call (no ambulance), or a running one with `ambulance_id`. */
async function newCall(priority: number, extra: Body = {}) {
  const body = { to: 'queue@example.com', patientName: `Queue P${priority}`, description: 'Caller on the line', priority, status: 'pending', ...extra };
  return expectStatus(rememberLocationLink(await s.api('POST', '/api/cases', { token: operator, body })), 201, 'create').body.case;
}
const waiting = (priority: number) => newCall(priority);
const running = (priority: number, ambulanceId: number) => newCall(priority, { status: 'active', ambulance_id: ambulanceId });
const step = async (ambulanceId: number, status: string) =>
  expectStatus(await s.api('POST', `/api/ambulances/${ambulanceId}/unit-status`, { token: operator, body: { status } }), 200, status);

const dispatchTo = (caseId: string, body: Body, o: { token?: string; headers?: Record<string, string> } = { token: operator }) =>
  s.api('POST', `/api/cases/${caseId}/dispatch`, { token: o.token, body, headers: o.headers });
const getCase = async (id: string) => expectStatus(await s.api('GET', `/api/cases/${id}`, { token: operator }), 200, 'get').body;
const openAssignments = (ambulanceId: number) => s.ctx.db('assignments').where({ ambulance_id: ambulanceId }).whereIn('status', OPEN);
const sound = async () => expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);

/** Every call ended and every ambulance free: each test starts from an idle fleet. */
async function idleFleet() {
  for (const c of await s.ctx.db('cases').whereIn('status', ['active', 'pending'])) {
    expectStatus(await updateCase(s, operator, c.id, { status: 'closed' }), 200, 'close');
  }
  await s.ctx.db('ambulances').update({ status: 'available' });
}

describe('a waiting call takes a free unit', () => {
  beforeAll(idleFleet);

  it('200 {case, requeued: null}: active with the unit, a new assignment, on its timeline, and live to staff', async () => {
    const call = await waiting(2);
    const staff = await s.socket({ token: admin });
    const cases = collect(staff, 'case.updated');
    const units = collect(staff, 'ambulance.updated');
    const res = await dispatchTo(call.id, { ambulance_id: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      case: expect.objectContaining({
        id: call.id, status: 'active', ambulance_id: 2, license_plate: plateOf(2), version: call.version + 1,
        assignment: expect.objectContaining({ ambulance_id: 2, license_plate: plateOf(2), status: 'dispatched', dispatched_at: expect.stringMatching(ISO_TIME) }),
      }),
      requeued: null,
    });
    expect((await ambulanceRow(s, 2)).status).toBe('busy');
    expect(await openAssignments(2)).toHaveLength(1);
    const last = await lastUpdate(call.id);
    expect({ action: last.action, actor: [last.actor_type, last.actor_id], before: json(last.before), after: json(last.after) }).toEqual({
      action: 'updated', actor: ['user', operatorId], before: { status: 'pending', ambulance_id: null }, after: { status: 'active', ambulance_id: 2 },
    });
    expect((await getCase(call.id)).case).toEqual(res.body.case);
    await expect.poll(() => cases.seen.find((c) => c.id === call.id)).toEqual(res.body.case);
    await expect.poll(() => units.seen.find((a) => a.id === 2)?.status).toBe('busy');
    await sound();
  });

  it('an active call taken without a unit is waiting too', async () => {
    const call = await newCall(3, { status: 'active' });
    const res = await dispatchTo(call.id, { ambulance_id: '5' });
    expect(res).toMatchObject({ status: 200, body: { case: { status: 'active', ambulance_id: 5, assignment: { status: 'dispatched' } }, requeued: null } });
    const last = await lastUpdate(call.id);
    expect([json(last.before), json(last.after)]).toEqual([{ ambulance_id: null }, { ambulance_id: 5 }]);
    await sound();
  });

  it('admins may dispatch too', async () => {
    const call = await waiting(4);
    expect((await dispatchTo(call.id, { ambulance_id: 6 }, { token: admin })).status).toBe(200);
    await sound();
  });
});

describe('the patient and the crew hear at once', () => {
  beforeAll(idleFleet);

  it("a waiting call dispatched from the queue mails the patient which ambulance comes and the crew its driver link; a diverted crew gets the new call's", async () => {
    const low = await running(4, 3);
    const urgent = await waiting(1);
    const free = await waiting(2);
    const before = Number((await s.ctx.db('outbox').max({ id: 'id' }).first())?.id ?? 0);
    expectStatus(await dispatchTo(free.id, { ambulance_id: 4 }), 200, 'dispatch free');
    expectStatus(await dispatchTo(urgent.id, { ambulance_id: 3, take_from_case_id: low.id }), 200, 'divert');
    const mails = await s.ctx.db('outbox').where('id', '>', before).orderBy('id');
    for (const [call, unit] of [[free, 4], [urgent, 3]] as const) {
      const own = mails.filter((m) => m.case_id === call.id);
      expect(own.map((m) => m.kind).sort(), call.id).toEqual(['tracking-driver', 'tracking-patient']);
      const crew = own.find((m) => m.kind === 'tracking-driver');
      expect(crew.to_address).toBe((await ambulanceRow(s, unit)).driver_email);
      expect(crew.body_text).toContain(`/driver/${unit}?t=`);
      expect(own.find((m) => m.kind === 'tracking-patient').body_text).toContain(plateOf(unit));
    }
    // The call the unit was taken from is mailed nothing: its patient keeps sharing on the link they have.
    expect(mails.filter((m) => m.case_id === low.id)).toEqual([]);
    await sound();
  });
});

describe('refusals change nothing', () => {
  let call: { id: string };
  let busyCall: { id: string };
  beforeAll(async () => {
    await idleFleet();
    call = await waiting(1);
    busyCall = await running(3, 1);
    await s.ctx.db('ambulances').where({ id: 7 }).update({ status: 'maintenance' });
  });

  it.each([
    ['a busy unit', () => ({ ambulance_id: 1 }), 409, `Ambulance ${plateOf(1)} is not available; choose another ambulance`],
    ['a unit in maintenance', () => ({ ambulance_id: 7 }), 409, `Ambulance ${plateOf(7)} is not available; choose another ambulance`],
    ['an unknown ambulance', () => ({ ambulance_id: 999 }), 422, 'Ambulance 999 does not exist'],
    ['no ambulance', () => ({}), 400, /^ambulance_id: /],
    ['an ambulance that is no id', () => ({ ambulance_id: 'TS09' }), 400, 'ambulance_id: must be a whole number'],
    ['a take_from_case_id that is no case id', () => ({ ambulance_id: 1, take_from_case_id: 'case-7' }), 400, 'take_from_case_id: must be a case id'],
    ['a unit taken from the call itself', () => ({ ambulance_id: 1, take_from_case_id: call.id }), 400, 'take_from_case_id: must be another call than the one dispatched'],
    ['an unknown ambulance to divert', () => ({ ambulance_id: 999, take_from_case_id: busyCall.id }), 422, 'Ambulance 999 does not exist'],
  ])('%s', async (_what, body, status, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, body())), status, error);
  });

  it('a call that is not waiting: already running with a unit, closed or resolved (409)', async () => {
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(busyCall.id, { ambulance_id: 2 })), 409, `This call is not waiting: it already has Ambulance ${plateOf(1)}`);
    const ended = await waiting(2);
    for (const status of ['closed', 'resolved']) {
      expectStatus(await updateCase(s, operator, ended.id, { status }), 200, status);
      expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(ended.id, { ambulance_id: 2 })), 409, `This call is not waiting: it is ${status}`);
    }
    // The same with a unit to divert: the target is checked first.
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(ended.id, { ambulance_id: 1, take_from_case_id: busyCall.id })), 409, 'This call is not waiting: it is resolved');
  });

  it('an unknown call (404)', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-case']) {
      expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(id, { ambulance_id: 2 })), 404, 'Case not found');
      expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(id, { ambulance_id: 1, take_from_case_id: busyCall.id })), 404, 'Case not found');
    }
  });

  it('a unit that is not on the call named to take it from: "reassigned meanwhile" (409)', async () => {
    const other = await waiting(4);
    const reassigned = `Ambulance ${plateOf(1)} was reassigned meanwhile; try again`;
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 1, take_from_case_id: other.id })), 409, reassigned);
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 1, take_from_case_id: '00000000-0000-4000-8000-000000000000' })), 409, reassigned);
    // A free unit is on no call: dispatch it without take_from_case_id.
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 2, take_from_case_id: busyCall.id })), 409, `Ambulance ${plateOf(2)} was reassigned meanwhile; try again`);
  });

  it('no token: 401; a patient\'s or a tracking link\'s token is no staff session (401 either way it is sent)', async () => {
    const patient = await locationToken(s, call.id);
    const { viewer, driver } = await trackingTokens(s, operator, busyCall.id, 1);
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 2 }, {})), 401, 'Authentication required');
    for (const token of [patient, viewer, driver]) {
      expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 2 }, { token })), 401, 'Your session has expired or was revoked; please sign in again');
      const res = await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/cases/${call.id}/dispatch?t=${token}`, { body: { ambulance_id: 2 } }));
      expectError(res, 401, 'Authentication required');
    }
  });
});

describe('diverting a unit from a less urgent call', () => {
  beforeAll(idleFleet);

  it('the unit goes to the P1; the P4 waits again: assignment cancelled, tracking links revoked, both timelines say so, all live', async () => {
    const low = await running(4, 3);
    await step(3, 'en_route');
    const { viewer } = await trackingTokens(s, operator, low.id, 3);
    expect((await s.api('GET', `/api/track/3?t=${viewer}`)).status).toBe(200);
    const lowAssignment = (await getCase(low.id)).case.assignment;
    const unitBefore = await ambulanceRow(s, 3);
    const urgent = await waiting(1);
    const staff = await s.socket({ token: admin });
    const cases = collect(staff, 'case.updated');
    const units = collect(staff, 'ambulance.updated');

    const res = await dispatchTo(urgent.id, { ambulance_id: 3, take_from_case_id: low.id });
    expect(res.status).toBe(200);
    expect(res.body.case).toMatchObject({
      id: urgent.id, status: 'active', ambulance_id: 3, license_plate: plateOf(3),
      assignment: { ambulance_id: 3, status: 'dispatched', dispatched_at: expect.stringMatching(ISO_TIME) },
    });
    expect(res.body.case.assignment.id).not.toBe(lowAssignment.id);
    expect(res.body.requeued).toMatchObject({
      id: low.id, status: 'pending', ambulance_id: null, closed_at: null,
      assignment: { id: lowAssignment.id, status: 'cancelled', cancelled_at: expect.stringMatching(ISO_TIME), en_route_at: lowAssignment.en_route_at },
    });
    expect(await getCase(urgent.id)).toEqual({ case: res.body.case, assignments: [res.body.case.assignment] });
    expect((await getCase(low.id)).case).toEqual(res.body.requeued);

    // The unit stayed busy throughout, on one open assignment: the urgent call's.
    const unit = await ambulanceRow(s, 3);
    expect({ status: unit.status, newer: unit.version > unitBefore.version }).toEqual({ status: 'busy', newer: true });
    expect((await openAssignments(3)).map((a) => a.case_id)).toEqual([urgent.id]);

    const lowEntry = await lastUpdate(low.id);
    expect({ action: lowEntry.action, actor: [lowEntry.actor_type, lowEntry.actor_id], before: json(lowEntry.before), after: json(lowEntry.after) }).toEqual({
      action: 'updated', actor: ['user', operatorId],
      before: { status: 'active', ambulance_id: 3, unit_status: 'en_route' },
      after: { status: 'pending', ambulance_id: null, unit_status: 'cancelled', diverted_to: urgent.id },
    });
    const urgentEntry = await lastUpdate(urgent.id);
    expect([urgentEntry.actor_id, json(urgentEntry.before), json(urgentEntry.after)])
      .toEqual([operatorId, { status: 'pending', ambulance_id: null }, { status: 'active', ambulance_id: 3, diverted_from: low.id }]);
    // The admins' timeline answers it as stored.
    const timeline = expectStatus(await s.api('GET', `/api/cases/${low.id}/timeline`, { token: admin }), 200, 'timeline').body.timeline;
    expect(timeline.at(-1).after).toMatchObject({ diverted_to: urgent.id });

    // The requeued call's tracking links no longer work.
    expect(await s.ctx.db('track_tokens').where({ case_id: low.id }).whereNull('revoked_at')).toEqual([]);
    expect((await s.api('GET', `/api/track/3?t=${viewer}`)).status).toBe(404);

    await expect.poll(() => cases.seen.filter((c) => c.id === low.id || c.id === urgent.id).map((c) => c.id).sort()).toEqual([low.id, urgent.id].sort());
    expect(cases.seen.find((c) => c.id === low.id)).toEqual(res.body.requeued);
    expect(cases.seen.find((c) => c.id === urgent.id)).toEqual(res.body.case);
    await expect.poll(() => units.seen.some((a) => a.id === 3 && a.version === unit.version)).toBe(true);
    await sound();
  });

  it('a unit only dispatched (not yet en route) can be diverted too; the requeued call can take a free unit again', async () => {
    const low = await running(3, 4);
    const urgent = await waiting(2);
    expect((await dispatchTo(urgent.id, { ambulance_id: 4, take_from_case_id: low.id })).status).toBe(200);
    const again = await dispatchTo(low.id, { ambulance_id: 8 });
    expect(again).toMatchObject({ status: 200, body: { case: { id: low.id, status: 'active', ambulance_id: 8 }, requeued: null } });
    expect((await getCase(low.id)).assignments.map((a: { status: string; ambulance_id: number }) => [a.ambulance_id, a.status])).toEqual([[4, 'cancelled'], [8, 'dispatched']]);
    await sound();
  });

  it.each([
    ['as urgent', 2, 2, 'as urgent as this priority 2 call'],
    ['more urgent', 1, 2, 'more urgent than this priority 2 call'],
  ])('refuses a unit on a call %s (409, nothing written)', async (_what, theirs, mine, words) => {
    await idleFleet();
    const other = await running(theirs, 5);
    const call = await waiting(mine);
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 5, take_from_case_id: other.id })), 409,
      `Ambulance ${plateOf(5)} is on a priority ${theirs} call, ${words}; only a unit on a less urgent call can be diverted`);
  });

  it.each([['on_scene', 'on scene'], ['transporting', 'transporting'], ['at_hospital', 'at hospital']])(
    'refuses a unit that has reached its call (%s; 409, nothing written)', async (status, words) => {
      await idleFleet();
      const low = await running(4, 6);
      await step(6, status);
      const call = await waiting(1);
      expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 6, take_from_case_id: low.id })), 409,
        `Ambulance ${plateOf(6)} is ${words} (it has reached its call); it cannot be diverted`);
    },
  );
});

describe('two dispatchers at once: exactly one winner', () => {
  beforeAll(idleFleet);

  it('two waiting calls take one free unit: one 200, one 409, the loser untouched', async () => {
    for (let round = 0; round < 3; round++) {
      await idleFleet();
      const [a, b] = [await waiting(2), await waiting(2)];
      const answers = await Promise.all([a, b].map((c) => dispatchTo(c.id, { ambulance_id: 2 })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expectError(answers.find((r) => r.status === 409)!, 409, `Ambulance ${plateOf(2)} is not available; choose another ambulance`);
      const lost = answers[0].status === 409 ? a : b;
      expect(await getCase(lost.id)).toEqual({ case: lost, assignments: [] });
      expect(await openAssignments(2)).toHaveLength(1);
      await sound();
    }
  });

  it('two urgent calls divert one unit: one 200, one 409 "reassigned meanwhile"; the lower call requeued once', async () => {
    for (let round = 0; round < 3; round++) {
      await idleFleet();
      const low = await running(4, 3);
      const [a, b] = [await waiting(1), await waiting(1)];
      const answers = await Promise.all([a, b].map((c) => dispatchTo(c.id, { ambulance_id: 3, take_from_case_id: low.id })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expectError(answers.find((r) => r.status === 409)!, 409, `Ambulance ${plateOf(3)} was reassigned meanwhile; try again`);
      const won = answers.find((r) => r.status === 200)!.body.case;
      expect((await openAssignments(3)).map((x) => x.case_id)).toEqual([won.id]);
      expect((await caseEvents(s, low.id)).filter((e) => json(e.after)?.diverted_to)).toHaveLength(1);
      await sound();
    }
  });

  it('a diversion and a free dispatch of the same unit, and the crew arriving as it is diverted: never both', async () => {
    for (let round = 0; round < 3; round++) {
      await idleFleet();
      const low = await running(4, 3);
      const { driver } = await trackingTokens(s, operator, low.id, 3);
      const [urgent, other] = [await waiting(1), await waiting(2)];
      const [diverted, free, arrived] = await Promise.all([
        dispatchTo(urgent.id, { ambulance_id: 3, take_from_case_id: low.id }),
        dispatchTo(other.id, { ambulance_id: 3 }),
        s.api('POST', `/api/ambulances/3/unit-status?t=${driver}`, { body: { status: 'on_scene' } }),
      ]);
      expectError(free, 409, `Ambulance ${plateOf(3)} is not available; choose another ambulance`);
      // Either the crew reached the scene first (the diversion is refused) or the unit was diverted first (the old call's driver link stopped working).
      expect([diverted.status, arrived.status].filter((x) => x === 200)).toHaveLength(1);
      if (diverted.status !== 200) expectError(diverted, 409, `Ambulance ${plateOf(3)} is on scene (it has reached its call); it cannot be diverted`);
      else expect((await getCase(low.id)).case).toMatchObject({ status: 'pending', assignment: { status: 'cancelled', on_scene_at: null } });
      await sound();
    }
  });

  it('two diversions naming the same pair of calls the other way round do not deadlock (one 200, one 409)', async () => {
    for (let round = 0; round < 3; round++) {
      await idleFleet();
      const low = await running(4, 2);
      const urgent = await waiting(1);
      // Each names the other's call: both lock the pair, in id order, so neither waits on the other forever.
      const answers = await Promise.all([
        dispatchTo(urgent.id, { ambulance_id: 2, take_from_case_id: low.id }),
        dispatchTo(low.id, { ambulance_id: 2, take_from_case_id: urgent.id }),
      ]);
      expect(answers[0].status).toBe(200);
      expect(answers[1].status).toBe(409);
      await sound();
    }
  });
});

describe('Idempotency-Key', () => {
  beforeAll(idleFleet);

  it('a retry replays the first answer and writes nothing; the key with another body is a 422', async () => {
    const call = await waiting(2);
    const headers = { 'Idempotency-Key': `queue-${call.id}` };
    const first = await dispatchTo(call.id, { ambulance_id: 2 }, { token: operator, headers });
    expect(first.status).toBe(200);
    const again = await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 2 }, { token: operator, headers }));
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 200, body: first.body, replayed: 'true' });
    expectError(await expectNoWrite(s.ctx.db, () => dispatchTo(call.id, { ambulance_id: 5 }, { token: operator, headers })), 422, 'Idempotency-Key was used with a different request');
    expect((await getCase(call.id)).assignments).toHaveLength(1);
  });

  it('a diversion retried after it committed is not a second diversion (nor a 409)', async () => {
    const low = await running(4, 3);
    const urgent = await waiting(1);
    const headers = { 'Idempotency-Key': `divert-${urgent.id}` };
    const body = { ambulance_id: 3, take_from_case_id: low.id };
    const answers = await Promise.all([0, 1, 2].map(() => dispatchTo(urgent.id, body, { token: operator, headers })));
    const done = answers.filter((r) => r.status === 200);
    // A retry while the first still runs is told so (409); every 200 is the same answer.
    expect(answers.every((r) => r.status === 200 || (r.status === 409 && r.body.error === 'A request with this Idempotency-Key is still being processed'))).toBe(true);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(new Set(done.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const replay = await dispatchTo(urgent.id, body, { token: operator, headers });
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 200, body: done[0].body });
    expect((await caseEvents(s, low.id)).filter((e) => json(e.after)?.diverted_to)).toHaveLength(1);
    await sound();
  });

  it('a refusal is replayed as it was answered', async () => {
    const call = await waiting(3);
    const headers = { 'Idempotency-Key': `refused-${call.id}` };
    const first = await dispatchTo(call.id, { ambulance_id: 3 }, { token: operator, headers });
    expectError(first, 409, `Ambulance ${plateOf(3)} is not available; choose another ambulance`);
    await idleFleet();
    const again = await dispatchTo(call.id, { ambulance_id: 3 }, { token: operator, headers });
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 409, body: first.body, replayed: 'true' });
  });
});
