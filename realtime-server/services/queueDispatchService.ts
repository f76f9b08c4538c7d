import type { Knex } from 'knex';
import type { AssignmentStatus, CaseDispatchInput, CaseDispatchResponse } from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { type CaseFields, caseRepository } from '../../db/repositories/caseRepository';
import type { AmbulanceRow, AssignmentRow, CaseRow } from '../../db/repositories/types';
import { presentAmbulance } from '../presenters/presentAmbulance';
import { presentCase } from '../presenters/presentCase';
import { assignments, revokeUnitLinks, unitNamed } from './assignmentService';
import { claimAmbulance, findCase, findCaseForUpdate, timelineActor } from './caseService';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { notifyDispatch } from './dispatchNotices';
import { badRequest, conflict, unprocessable } from './errors';
import type { DomainEvent } from './events';

type Record = (e: DomainEvent) => void;
type Staff = Actor & { type: 'user' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A unit that has not reached its call yet: the only ones a dispatcher may take away from it. */
const NOT_ARRIVED: readonly AssignmentStatus[] = ['dispatched', 'en_route'];
const words = (s: string) => s.replace('_', ' ');

/** A waiting call: pending, or active without a unit (taken before any was free). Anything else is a 409 that changes nothing. */
function refuseUnlessWaiting(c: CaseRow) {
  if (c.status === 'active' && c.ambulance_id != null) throw conflict(`This call is not waiting: it already has Ambulance ${c.license_plate ?? c.ambulance_id}`);
  if (c.status !== 'pending' && c.status !== 'active') throw conflict(`This call is not waiting: it is ${c.status}`);
}

/** The fields of `next` that differ from the row, as they were and as they become (a timeline never shows a value to itself). */
function changes(row: CaseRow, next: CaseFields) {
  const keys = (Object.keys(next) as (keyof CaseFields)[]).filter((k) => String(next[k] ?? '') !== String(row[k] ?? ''));
  return {
    before: Object.fromEntries(keys.map((k) => [k, row[k as keyof CaseRow]])),
    after: Object.fromEntries(keys.map((k) => [k, next[k]])),
  };
}

/**
 * The waiting call takes the unit: active with it, a new dispatch time (its tracking links show
 * the path from here on) and a new assignment, on its timeline as caseService.update records a
 * dispatch, plus `diverted_from` when the unit came off another call.
 */
export async function giveUnit(trx: Knex.Transaction, ctx: ServiceContext, record: Record, actor: Staff, target: CaseRow, ambulance: AmbulanceRow, at: string, divertedFrom: string | null): Promise<CaseRow> {
  const next: CaseFields = { status: 'active', ambulance_id: ambulance.id, closed_at: null };
  const { before, after } = changes(target, next);
  await caseRepository.update(trx, target.id, { ...next, dispatched_at: at }, { before: target, plate: ambulance.license_plate });
  await caseEventRepository.insert(trx, {
    caseId: target.id, action: 'updated', actor: timelineActor(actor),
    before, after: divertedFrom ? { ...after, diverted_from: divertedFrom } : after,
  });
  await caseRepository.setAssignment(trx, target.id, await assignments.start(trx, target.id, ambulance, at));
  // The case as it stays: the crew's notice writes beside the row (links, mail, timeline), never to it.
  const row = await findCase(trx, target.id);
  // The patient hears which ambulance is coming, the crew gets its driver link at once (a diverted crew: the new call's).
  await notifyDispatch(trx, record, ctx, actor, row, ambulance, { patient: 'tracking' });
  return row;
}

/**
 * The lower call gives its unit up: its assignment ends cancelled and its links stop working. With
 * no other unit on it, it waits again (pending, no ambulance); with another, it stays active with
 * that one. Its timeline says which call took the unit (`after.diverted_to`) and who did it (the
 * entry's actor).
 */
async function requeue(trx: Knex.Transaction, record: Record, actor: Staff, from: CaseRow, open: AssignmentRow, takenFor: string, at: string) {
  const ended = await assignments.endOne(trx, open, 'reassigning', at);
  const stillOn = await assignmentRepository.openForCase(trx, from.id);
  if (stillOn.length > 0) {
    await caseRepository.touch(trx, from.id);
    await caseEventRepository.insert(trx, {
      caseId: from.id, action: 'unit.cancelled', actor: timelineActor(actor),
      before: { status: open.status }, after: { ...unitNamed(open), status: 'cancelled', reason: 'Diverted to a more urgent call', diverted_to: takenFor },
    });
    await revokeUnitLinks(trx, record, from.id, open.ambulance_id);
    await assignments.settlePrimary(trx, from.id, actor);
    return;
  }
  const { before, after } = changes(from, { status: 'pending', ambulance_id: null, closed_at: null });
  await caseRepository.update(trx, from.id, { status: 'pending', ambulance_id: null, closed_at: null }, { before: from, plate: null });
  await caseEventRepository.insert(trx, {
    caseId: from.id, action: 'updated', actor: timelineActor(actor),
    before: { ...before, ...ended.before }, after: { ...after, ...ended.after, diverted_to: takenFor },
  });
  await revokeUnitLinks(trx, record, from.id, null);
}

/** Assigns a free unit: the waiting call, then the ambulance (the order every write locks them in). */
async function dispatchFree(trx: Knex.Transaction, ctx: ServiceContext, record: Record, actor: Staff, caseId: string, ambulanceId: number, at: string): Promise<CaseDispatchResponse> {
  const target = await findCaseForUpdate(trx, caseId);
  refuseUnlessWaiting(target);
  const ambulance = await claimAmbulance(trx, ambulanceId);
  const given = await giveUnit(trx, ctx, record, actor, target, ambulance, at, null);
  record({ type: 'ambulance.updated', ambulance: presentAmbulance((await ambulanceRepository.findById(trx, ambulance.id))!) });
  const dto = presentCase(given);
  record({ type: 'case.updated', case: dto });
  return { case: dto, requeued: null };
}

/**
 * Diverts a unit from a less urgent call it has not reached. Both calls are locked in id order
 * (two diversions between the same pair, either way round, cannot deadlock), then the ambulance:
 * case before ambulance, as every write takes them. Every check reads the rows under those locks,
 * so of two dispatchers taking one unit at once exactly one wins; the other gets a 409.
 */
async function divert(trx: Knex.Transaction, ctx: ServiceContext, record: Record, actor: Staff, caseId: string, fromId: string, ambulanceId: number, at: string): Promise<CaseDispatchResponse> {
  const pair = [caseId.toLowerCase(), fromId.toLowerCase()];
  if (pair[0] === pair[1]) throw badRequest('take_from_case_id: must be another call than the one dispatched');
  for (const id of [...pair].sort()) if (UUID.test(id)) await caseRepository.lock(trx, id);
  const target = await findCase(trx, caseId);
  refuseUnlessWaiting(target);
  await ambulanceRepository.lock(trx, ambulanceId);
  const ambulance = await ambulanceRepository.findById(trx, ambulanceId);
  if (!ambulance) throw unprocessable(`Ambulance ${ambulanceId} does not exist`);
  const plate = ambulance.license_plate;
  const open = await assignmentRepository.openForAmbulance(trx, ambulanceId);
  const from = open && open.case_id.toLowerCase() === fromId.toLowerCase() ? await caseRepository.findById(trx, open.case_id) : undefined;
  if (!open || !from || from.status !== 'active') throw conflict(`Ambulance ${plate} was reassigned meanwhile; try again`);
  const [mine, theirs] = [Number(target.priority), Number(from.priority)];
  if (theirs <= mine) {
    throw conflict(`Ambulance ${plate} is on a priority ${theirs} call, ${theirs === mine ? 'as urgent as' : 'more urgent than'} this priority ${mine} call; only a unit on a less urgent call can be diverted`);
  }
  if (!NOT_ARRIVED.includes(open.status as AssignmentStatus)) throw conflict(`Ambulance ${plate} is ${words(open.status)} (it has reached its call); it cannot be diverted`);

  await requeue(trx, record, actor, from, open, target.id, at);
  // Busy throughout: the unit goes from one call to the other without ever being free for a third.
  await ambulanceRepository.touch(trx, ambulanceId);
  const given = await giveUnit(trx, ctx, record, actor, target, ambulance, at, from.id);
  record({ type: 'ambulance.updated', ambulance: presentAmbulance((await ambulanceRepository.findById(trx, ambulanceId))!) });
  const requeued = presentCase(await findCase(trx, from.id));
  const dto = presentCase(given);
  record({ type: 'case.updated', case: requeued });
  record({ type: 'case.updated', case: dto });
  return { case: dto, requeued };
}

export const queueDispatchService = {
  /**
   * POST /api/cases/{id}/dispatch (contract/queue.ts): a waiting call takes a free unit, or one
   * diverted from a less urgent call that goes back to the queue, in one transaction; every
   * refusal (404, 409, 422, 400) writes nothing. Events are published after the commit.
   */
  dispatch: (ctx: ServiceContext, actor: Staff, caseId: string, input: CaseDispatchInput) =>
    inTransaction(ctx, async (trx, record): Promise<CaseDispatchResponse> => {
      const at = new Date().toISOString();
      return input.take_from_case_id
        ? divert(trx, ctx, record, actor, caseId, input.take_from_case_id, input.ambulance_id, at)
        : dispatchFree(trx, ctx, record, actor, caseId, input.ambulance_id, at);
    }),
};
