import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentRow } from '../../db/repositories/types';
import { dispatchCase, expectStatus } from '../testing/dispatchHelpers';
import { useTestServer } from '../testing/testServer';
import { assignmentTimeViolations, checkInvariants } from './invariants';

const T = (m: number) => `2026-11-24T10:${String(m).padStart(2, '0')}:00.000Z`;
const row = (fields: Partial<AssignmentRow>): AssignmentRow => ({
  id: 7, case_id: 'c', ambulance_id: 1, license_plate: 'TS09 EA 1001', capability: 'als', status: 'dispatched', dispatched_at: T(0),
  en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, ...fields,
});

describe('assignmentTimeViolations (1c): times never decrease, the status is the last step reached', () => {
  it.each([
    ['just dispatched', {}],
    ['every step in order', { status: 'cleared', en_route_at: T(1), on_scene_at: T(2), transporting_at: T(3), at_hospital_at: T(4), cleared_at: T(5) }],
    ['steps skipped', { status: 'cleared', on_scene_at: T(2), cleared_at: T(9) }],
    ['two steps at the same time (a clamped offline press)', { status: 'on_scene', en_route_at: T(0), on_scene_at: T(0) }],
    ['cancelled after its last step', { status: 'cancelled', en_route_at: T(1), cancelled_at: T(3) }],
  ])('sound: %s', (_what, fields) => {
    expect(assignmentTimeViolations(row(fields as Partial<AssignmentRow>))).toEqual([]);
  });

  it.each([
    ['a step before the one before it', { status: 'on_scene', en_route_at: T(5), on_scene_at: T(4) }, `assignment 7: on_scene_at ${T(4)} is before the step before it (${T(5)})`],
    ['a step before the dispatch', { dispatched_at: T(3), status: 'en_route', en_route_at: T(2) }, `assignment 7: en_route_at ${T(2)} is before the step before it (${T(3)})`],
    ['a skipped step still ordered against the last one', { status: 'cleared', en_route_at: T(6), cleared_at: T(5) }, `assignment 7: cleared_at ${T(5)} is before the step before it (${T(6)})`],
    ['cancelled before its last step', { status: 'cancelled', on_scene_at: T(4), cancelled_at: T(3) }, `assignment 7: cancelled_at ${T(3)} is before its last step (${T(4)})`],
    ['a status ahead of its times', { status: 'on_scene', en_route_at: T(1) }, 'assignment 7 is on_scene but its last recorded step is en_route'],
    ['a status behind its times', { status: 'en_route', en_route_at: T(1), on_scene_at: T(2) }, 'assignment 7 is en_route but its last recorded step is on_scene'],
    ['cancelled with no time', { status: 'cancelled' }, 'assignment 7 is cancelled but its last recorded step is dispatched'],
    ['a time that is no time', { status: 'en_route', en_route_at: 'soon' }, 'assignment 7: en_route_at is not a time (soon)'],
  ])('caught: %s', (_what, fields, violation) => {
    expect(assignmentTimeViolations(row(fields as Partial<AssignmentRow>))).toContain(violation);
  });
});

describe('checkInvariants catches a broken row (1b, 1c, 1d)', () => {
  const s = useTestServer();
  let operator: string;
  let caseId: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    caseId = await dispatchCase(s, operator, 1);
    expectStatus(await s.api('POST', '/api/ambulances/1/unit-status', { token: operator, body: { status: 'en_route' } }), 200, 'en route');
  });

  /** The violations found after `breakIt`, all rolled back afterwards. */
  async function violationsAfter(breakIt: (trx: Knex.Transaction) => Promise<unknown>): Promise<string[]> {
    let found: string[] = [];
    await s.ctx.db.transaction(async (trx) => {
      await breakIt(trx);
      found = (await checkInvariants(trx)).violations;
      await trx.rollback();
    }).catch((err: unknown) => { if (err) throw err; });
    return found;
  }

  it('the data the API wrote is sound', async () => {
    expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
  });

  it('a busy ambulance whose assignment ended', async () => {
    const open = await s.ctx.db('assignments').where({ case_id: caseId }).first();
    expect(await violationsAfter((trx) => trx('assignments').where({ id: open.id }).update({ status: 'cancelled', cancelled_at: new Date().toISOString() })))
      .toContain('ambulance 1 is busy with 0 open assignments');
  });

  it('an open assignment of a case that no longer holds the ambulance', async () => {
    const open = await s.ctx.db('assignments').where({ case_id: caseId }).first();
    const found = await violationsAfter((trx) => trx('cases').where({ id: caseId }).update({ status: 'closed' }));
    expect(found).toContain(`assignment ${open.id} of ambulance 1 is open but its case ${caseId} is closed`);
  });

  it('a case naming another assignment than its open one', async () => {
    const open = await s.ctx.db('assignments').where({ case_id: caseId }).first();
    expect(await violationsAfter((trx) => trx('cases').where({ id: caseId }).update({ assignment_id: open.id + 100 })))
      .toContain(`case ${caseId} names assignment ${open.id + 100} as its primary, the rule says ${open.id}`);
  });

  it('an active case holding another ambulance than its primary unit\'s', async () => {
    expect(await violationsAfter((trx) => trx('cases').where({ id: caseId }).update({ ambulance_id: 2 })))
      .toContain(`active case ${caseId} holds ambulance 2, its primary unit is 1`);
  });

  it('a primary that is not the unit conveying (two units, the second transporting)', async () => {
    const open = await s.ctx.db('assignments').where({ case_id: caseId }).first();
    const found = await violationsAfter(async (trx) => {
      await trx('ambulances').where({ id: 2 }).update({ status: 'busy' });
      await trx('assignments').insert({
        case_id: caseId, ambulance_id: 2, license_plate: 'TS09 EA 1002', status: 'transporting', dispatched_at: open.dispatched_at,
        on_scene_at: open.dispatched_at, transporting_at: open.dispatched_at,
      });
    });
    expect(found.some((v) => v.startsWith(`case ${caseId} names assignment ${open.id} as its primary, the rule says`))).toBe(true);
  });

  it('two open assignments of one ambulance (were the unique index gone)', async () => {
    const found = await violationsAfter(async (trx) => {
      await trx.raw('drop index assignments_open_per_ambulance');
      const open = await trx('assignments').where({ case_id: caseId }).first();
      await trx('assignments').insert({ case_id: caseId, ambulance_id: 1, license_plate: open.license_plate, status: 'dispatched', dispatched_at: open.dispatched_at });
    });
    expect(found).toContain('ambulance 1 has 2 open assignments');
  });

  it('times that decrease', async () => {
    const open = await s.ctx.db('assignments').where({ case_id: caseId }).first();
    expect(await violationsAfter((trx) => trx('assignments').where({ id: open.id }).update({ en_route_at: '2020-01-01T00:00:00.000Z' })))
      .toContain(`assignment ${open.id}: en_route_at 2020-01-01T00:00:00.000Z is before the step before it (${open.dispatched_at})`);
  });

  it('one ambulance on two calls at once (1d): an ended assignment reaching into its open one', async () => {
    const open = await s.ctx.db('assignments').where({ case_id: caseId }).first();
    const earlier = await dispatchCase(s, operator, 2);
    const found = await violationsAfter(async (trx) => {
      await trx('assignments').where({ case_id: earlier }).update({
        ambulance_id: 1, status: 'cleared', dispatched_at: '2020-01-01T00:00:00.000Z', cleared_at: '2099-01-01T00:00:00.000Z',
      });
    });
    expect(found.some((v) => v.startsWith('assignments ') && v.endsWith(`${open.id} of ambulance 1 overlap`))).toBe(true);
  });

  it('every break above was rolled back', async () => {
    expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
  });
});
