import type { Knex } from 'knex';
import {
  type AssignmentDto, type AssignmentStatus, type TimeCorrectionInput, type TimedStep, type UnitStatusInput,
  TIMED_STEPS, isOpenAssignment, primaryAssignment, stepTimeKey,
} from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { arrivalRepository } from '../../db/repositories/arrivalRepository';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { trackTokenRepository } from '../../db/repositories/trackTokenRepository';
import type { AmbulanceRow, AssignmentRow } from '../../db/repositories/types';
import { presentAmbulance } from '../presenters/presentAmbulance';
import { presentAssignment } from '../presenters/presentAssignment';
import { presentCase } from '../presenters/presentCase';
import { tripTravel } from './dispatchSuggestions';
import type { DomainEvent } from './events';
import { conflict, forbidden, notFound, unprocessable } from './errors';
import { type Actor, type ServiceContext, inTransaction, timelineActor } from './context';

type Record = (e: DomainEvent) => void;

/** Who reports a unit's step: staff (any ambulance) or a driver link, which holds for its own case's assignment only. */
export type UnitStatusSource = { type: 'staff'; actor: Actor & { type: 'user' } } | { type: 'driver'; caseId: string }
  /** A hospital's page presses "Handover complete" for one unit conveyed to it. */
  | { type: 'hospital'; hospitalId: number; assignmentId: number };

export const NOT_COMING_HERE = 'This unit is not coming to this hospital';

/** Who a step is recorded as having been pressed by. */
const sourceActor = (source: UnitStatusSource): Actor =>
  source.type === 'staff' ? source.actor : source.type === 'hospital' ? { type: 'hospital', id: source.hospitalId } : { type: 'driver' };

export const NOT_YOUR_ASSIGNMENT = 'This link is not valid for sending positions';

const stepIndex = (s: AssignmentStatus) => TIMED_STEPS.indexOf(s as TimedStep);
const words = (s: AssignmentStatus) => (s === 'handover' ? 'handed over' : s.replace('_', ' '));

/** The latest time recorded on an assignment before `step` (the dispatch time at least). */
function previousTime(a: AssignmentRow, step: TimedStep): string {
  let latest = a.dispatched_at;
  for (const s of TIMED_STEPS.slice(1, stepIndex(step))) latest = a[stepTimeKey(s)] ?? latest;
  return latest;
}

/** The earliest time recorded on an assignment after `step`, or null. */
function nextTime(a: AssignmentRow, step: TimedStep): string | null {
  for (const s of TIMED_STEPS.slice(stepIndex(step) + 1)) if (a[stepTimeKey(s)]) return a[stepTimeKey(s)];
  return a.cancelled_at;
}

/**
 * At arrival: the metres driven since en route and the straight line they covered, which
 * calibrate the arrival estimates (dispatchSuggestions.ts); left null when the fixes cannot say.
 */
async function recordTravel(trx: Knex.Transaction, a: AssignmentRow, ambulanceId: number, arrivedAt: string) {
  if (!a.en_route_at) return;
  const fixes = await arrivalRepository.fixesBetween(trx, ambulanceId, a.en_route_at, arrivedAt);
  if (fixes.length < 2) return;
  const c = presentCase((await caseRepository.findById(trx, a.case_id))!);
  const travel = tripTravel(fixes, c.latitude != null && c.longitude != null ? { latitude: c.latitude, longitude: c.longitude } : null);
  if (travel) await arrivalRepository.recordTravel(trx, a.id, travel);
}

/**
 * An assignment's times as corrected must fit its ambulance's life: not dispatched before the
 * ambulance joined the fleet, and not overlapping another of its assignments (one call at a time:
 * the utilisation report would count the ambulance twice).
 */
async function refuseOtherCallsThen(trx: Knex.Transaction, a: AssignmentRow, ambulanceId: number, step: 'dispatched' | 'cleared') {
  const ambulance = step === 'dispatched' ? await ambulanceRepository.findById(trx, ambulanceId) : undefined;
  if (ambulance && a.dispatched_at < ambulance.created_at) {
    throw unprocessable(`at: must not be before ${ambulance.license_plate} was added to the fleet (${ambulance.created_at})`);
  }
  const other = await assignmentRepository.overlapping(trx, ambulanceId, a.id, a.dispatched_at, a.cleared_at ?? a.cancelled_at);
  if (!other) return;
  const which = other.dispatched_at < a.dispatched_at ? 'previous' : 'next';
  const until = other.cleared_at ?? other.cancelled_at ?? 'now';
  throw unprocessable(`at: ${a.license_plate} was on another call then: its ${which} assignment (case ${other.case_id.slice(0, 8)}) ran from ${other.dispatched_at} to ${until}; an ambulance serves one call at a time`);
}

async function publishAmbulance(trx: Knex.Transaction, id: number, record: Record) {
  const row = await ambulanceRepository.findById(trx, id);
  if (row) record({ type: 'ambulance.updated', ambulance: presentAmbulance(row) });
}

/**
 * Ends a call's links: one unit's (its driver's and its tracking links; its open pages go to standby)
 * when `ambulanceId` is given, else every link of the call.
 */
export async function revokeUnitLinks(trx: Knex.Transaction, record: Record, caseId: string, ambulanceId: number | null) {
  await trackTokenRepository.revokeForCase(trx, caseId, ambulanceId ?? undefined);
  record(ambulanceId == null ? { type: 'grants.revoked', caseId } : { type: 'grants.revoked', caseId, ambulanceId });
}

async function publishCase(trx: Knex.Transaction, id: string, record: Record) {
  record({ type: 'case.updated', case: presentCase((await caseRepository.findById(trx, id))!) });
}

/**
 * The unit a crew's (or staff's) request is about, with its open assignment, its rows locked in the
 * order every write takes them (case, then ambulance), so none deadlock: 404 for no such ambulance
 * (403 to a driver link, which learns nothing of other ambulances), 403 for a driver link whose
 * call the unit is not on. `movedMeanwhile`: the assignment changed while the locks were awaited.
 */
export async function unitOnCall(trx: Knex.Transaction, ambulanceId: number, source: UnitStatusSource) {
  const unknown = () => (source.type === 'driver' ? forbidden(NOT_YOUR_ASSIGNMENT) : source.type === 'hospital' ? forbidden(NOT_COMING_HERE) : notFound('Ambulance details not found'));
  if (!Number.isSafeInteger(ambulanceId) || ambulanceId <= 0) throw unknown();
  const seen = await assignmentRepository.openForAmbulance(trx, ambulanceId);
  if (seen) await caseRepository.lock(trx, seen.case_id);
  await ambulanceRepository.lock(trx, ambulanceId);
  const ambulance = await ambulanceRepository.findById(trx, ambulanceId);
  if (!ambulance) throw unknown();
  const open = await assignmentRepository.openForAmbulance(trx, ambulanceId);
  if (source.type === 'driver' && open?.case_id !== source.caseId) throw forbidden(NOT_YOUR_ASSIGNMENT);
  if (source.type === 'hospital' && (open?.id !== source.assignmentId || open.destination_hospital_id !== source.hospitalId)) throw forbidden(NOT_COMING_HERE);
  return { ambulance, open, movedMeanwhile: open?.id !== seen?.id };
}

/** How a timeline entry names one unit of a call. */
export const unitNamed = (a: Pick<AssignmentRow, 'id' | 'ambulance_id' | 'license_plate' | 'capability'>) =>
  ({ assignment_id: a.id, ambulance_id: a.ambulance_id, license_plate: a.license_plate, capability: a.capability });

/** The end a standing-down or closing gives an open assignment: cleared once it reached the scene and the call is closing, else cancelled. */
function endStatus(a: AssignmentRow, why: 'closing' | 'reassigning'): AssignmentStatus {
  // Reached the scene: on scene or any later step, pressed or skipped (a crew may press "transporting" straight away).
  const reachedScene = stepIndex(a.status as AssignmentStatus) >= stepIndex('on_scene');
  return why === 'closing' && reachedScene ? 'cleared' : 'cancelled';
}

/**
 * The assignment steps a case's own writes take (dispatch, reassignment, closing): run inside
 * the case service's transaction, which records the case's change on its timeline.
 */
export const assignments = {
  /**
   * A new open assignment of `ambulance` to the case, dispatched `at`. (The case's own entry,
   * created or updated with the ambulance, is the dispatch on its timeline.) Never before the
   * ambulance's last call ended: a write that read the clock and then waited for the ambulance's
   * lock while another released it would otherwise start a few milliseconds inside that call.
   */
  async start(trx: Knex.Transaction, caseId: string, ambulance: Pick<AmbulanceRow, 'id' | 'license_plate' | 'capability'>, at: string) {
    const freed = await assignmentRepository.lastEndOf(trx, ambulance.id);
    const dispatchedAt = freed != null && freed > at ? freed : at;
    return assignmentRepository.insert(trx, {
      case_id: caseId, ambulance_id: ambulance.id, license_plate: ambulance.license_plate, capability: ambulance.capability ?? 'als', dispatched_at: dispatchedAt,
    });
  },

  /** Ends one open assignment at `at` (never before its last step); answers the step it left and the one it ended in. */
  async endOne(trx: Knex.Transaction, open: AssignmentRow, why: 'closing' | 'reassigning', at: string) {
    const status = endStatus(open, why);
    const reached = open[stepTimeKey(open.status as AssignmentStatus)] ?? open.dispatched_at;
    await assignmentRepository.update(trx, open.id, { status, [stepTimeKey(status)]: at < reached ? reached : at });
    return { before: { unit_status: open.status }, after: { unit_status: status } };
  },

  /**
   * Ends every open assignment of the case (closing it, or sending it back to the queue): each is
   * `cleared` when its crew reached the scene and the case is being closed, `cancelled` otherwise.
   * Answers the ambulances it freed (the caller releases them) and, for the case's timeline entry,
   * the primary unit's step before and after; null when none was open.
   */
  async endAll(trx: Knex.Transaction, caseId: string, primaryId: number | null, why: 'closing' | 'reassigning', at: string) {
    const open = await assignmentRepository.openForCase(trx, caseId);
    if (open.length === 0) return null;
    let told: { before: { unit_status: string }; after: { unit_status: string } } | null = null;
    for (const a of open) {
      const ended = await assignments.endOne(trx, a, why, at);
      if (a.id === primaryId || told == null) told = ended;
    }
    return { ambulanceIds: open.flatMap((a) => (a.ambulance_id == null ? [] : [a.ambulance_id])), ...told! };
  },

  /**
   * Makes the case name its primary unit (contract primaryAssignment): `assignment_id` always, and
   * `ambulance_id` while that unit is on an active call (a change of the row: its own 'updated'
   * entry, by `actor`). Call it after any change of the call's units, in that change's transaction.
   */
  async settlePrimary(trx: Knex.Transaction, caseId: string, actor: Actor = { type: 'system' }) {
    const all = await assignmentRepository.listForCase(trx, caseId);
    const primary = primaryAssignment(all.map((a) => ({ ...a, status: a.status as AssignmentStatus })));
    if (!primary) return null;
    const c = (await caseRepository.findById(trx, caseId))!;
    if (Number(c.assignment_id) !== primary.id) await caseRepository.setAssignment(trx, caseId, primary.id);
    if (c.status === 'active' && isOpenAssignment(primary.status) && c.ambulance_id !== primary.ambulance_id) {
      // The call now holds another unit as its primary: a change of its row, on its timeline like any other.
      await caseRepository.update(trx, caseId, { ambulance_id: primary.ambulance_id });
      await caseEventRepository.insert(trx, {
        caseId, action: 'updated', actor: timelineActor(actor), before: { ambulance_id: c.ambulance_id }, after: { ambulance_id: primary.ambulance_id },
      });
    }
    return primary;
  },
};

export const assignmentService = {
  /**
   * A unit's next step (POST /api/ambulances/{id}/unit-status, the driver socket's `unit.status`):
   * forward only, a step may be skipped; a repeated or backward step, or an ambulance with no open
   * assignment, is a 409 that changes nothing. `at` (a press queued offline) is kept within the
   * receive time and the previous step's time, so an assignment's times never decrease.
   * `cleared` ends the assignment: the ambulance becomes available and the case resolved.
   */
  setUnitStatus: (ctx: ServiceContext, ambulanceId: number, input: UnitStatusInput, source: UnitStatusSource) =>
    inTransaction(ctx, async (trx, record): Promise<AssignmentDto> => {
      const { ambulance, open, movedMeanwhile } = await unitOnCall(trx, ambulanceId, source);
      if (!open) throw conflict(`Ambulance ${ambulance.license_plate} has no open assignment`);
      if (movedMeanwhile) throw conflict(`Ambulance ${ambulance.license_plate} was reassigned meanwhile; try again`);
      const from = open.status as AssignmentStatus;
      if (input.status === from) throw conflict(`Ambulance ${ambulance.license_plate} is already ${words(from)}`);
      if (stepIndex(input.status) < stepIndex(from)) throw conflict(`Ambulance ${ambulance.license_plate} is ${words(from)}; it cannot go back to ${words(input.status)}`);

      const received = new Date().toISOString();
      const pressed = input.at ? new Date(input.at).toISOString() : received;
      const floor = previousTime(open, input.status);
      const at = pressed > received ? received : pressed < floor ? floor : pressed;
      await assignmentRepository.update(trx, open.id, { status: input.status, [stepTimeKey(input.status)]: at });
      if (input.status === 'on_scene') await recordTravel(trx, open, ambulanceId, at);
      const actor = sourceActor(source);
      await caseRepository.touch(trx, open.case_id);
      await caseEventRepository.insert(trx, {
        caseId: open.case_id, action: 'unit.status', actor: timelineActor(actor),
        before: { status: from },
        after: { status: input.status, at, assignment_id: open.id, ambulance_id: ambulanceId, license_plate: ambulance.license_plate },
      });
      if (input.status === 'cleared') {
        await ambulanceRepository.release(trx, ambulanceId);
        const c = (await caseRepository.findById(trx, open.case_id))!;
        const stillOn = await assignmentRepository.openForCase(trx, c.id);
        // The call resolves when its last unit clears; while another is on it, only this unit's links end.
        if (stillOn.length === 0 && c.status === 'active') {
          await caseRepository.update(trx, c.id, { status: 'resolved', closed_at: at });
          await caseEventRepository.insert(trx, {
            caseId: c.id, action: 'updated', actor: timelineActor(actor),
            before: { status: c.status, closed_at: c.closed_at }, after: { status: 'resolved', closed_at: at },
          });
        }
        await revokeUnitLinks(trx, record, c.id, stillOn.length === 0 ? null : ambulanceId);
      } else {
        await ambulanceRepository.touch(trx, ambulanceId);
      }
      await assignments.settlePrimary(trx, open.case_id, actor);
      await publishAmbulance(trx, ambulanceId, record);
      await publishCase(trx, open.case_id, record);
      return presentAssignment((await assignmentRepository.findById(trx, open.id))!);
    }),

  /**
   * A dispatcher's correction of one recorded time, with a reason, on the timeline with who made
   * it. The new time keeps the assignment's times in order (after the step before, before the
   * step after, not in the future); a step the assignment never reached (later, or skipped: a
   * call treated on scene has no transport) cannot be given a time. The ambulance stays on one
   * call at a time (the assignment no longer overlaps its previous or next one) and no earlier
   * than it joined the fleet. A corrected clear of the call's last assignment moves its closed_at.
   */
  correctTime: (ctx: ServiceContext, actor: Actor & { type: 'user' }, caseId: string, assignmentId: number, input: TimeCorrectionInput) =>
    inTransaction(ctx, async (trx, record): Promise<AssignmentDto> => {
      const found = Number.isSafeInteger(assignmentId) && assignmentId > 0 ? await assignmentRepository.findById(trx, assignmentId) : undefined;
      if (!found || found.case_id !== caseId) throw notFound('Assignment not found');
      await caseRepository.lock(trx, caseId);
      if (found.ambulance_id != null) await ambulanceRepository.lock(trx, found.ambulance_id);
      const a = (await assignmentRepository.findById(trx, assignmentId))!;
      const key = stepTimeKey(input.step);
      if (a[key] == null) throw unprocessable(`step: this assignment never reached ${words(input.step)}`);
      const at = new Date(input.at).toISOString();
      if (at > new Date().toISOString()) throw unprocessable('at: must not be in the future');
      const c = (await caseRepository.findById(trx, caseId))!;
      const floor = input.step === 'dispatched' ? c.call_received_at : previousTime(a, input.step);
      if (at < floor) throw unprocessable(`at: must not be before ${input.step === 'dispatched' ? 'the call came in' : 'the step before it'} (${floor})`);
      const ceiling = nextTime(a, input.step);
      if (ceiling && at > ceiling) throw unprocessable(`at: must not be after the step that follows it (${ceiling})`);
      if (a[key] === at) return presentAssignment(a);
      // Its dispatch and clear bound the time the ambulance was on this call.
      if (a.ambulance_id != null && (input.step === 'dispatched' || input.step === 'cleared')) await refuseOtherCallsThen(trx, { ...a, [key]: at }, a.ambulance_id, input.step);
      // The call ended with this assignment's clear (its last unit's): it ends when the clear did.
      const closedAt = input.step === 'cleared' && c.closed_at != null && a.cleared_at === c.closed_at ? { closed_at: at } : {};
      await assignmentRepository.update(trx, a.id, { [key]: at });
      await caseRepository.touch(trx, caseId, closedAt);
      await caseEventRepository.insert(trx, {
        caseId, action: 'unit.corrected', actor: timelineActor(actor),
        before: { [key]: a[key], ...(closedAt.closed_at ? { closed_at: c.closed_at } : {}) }, after: { [key]: at, ...closedAt, reason: input.reason, assignment_id: a.id },
      });
      if (a.ambulance_id != null && isOpenAssignment(a.status as AssignmentStatus) && a.status === input.step) {
        await ambulanceRepository.touch(trx, a.ambulance_id);
        await publishAmbulance(trx, a.ambulance_id, record);
      }
      await publishCase(trx, caseId, record);
      return presentAssignment((await assignmentRepository.findById(trx, a.id))!);
    }),

  /** Every assignment a case had, the first first (404 for an unknown case is the caller's). */
  listForCase: async (ctx: ServiceContext, caseId: string) => (await assignmentRepository.listForCase(ctx.db, caseId)).map((a) => presentAssignment(a)),
};
