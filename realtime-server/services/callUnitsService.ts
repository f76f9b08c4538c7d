import type { Knex } from 'knex';
import {
  type AddUnitResponse, type AssignmentStatus, type BackupAlert, type BackupRequestState, type BackupRequestInput, type Priority, type StandDownInput, type StandDownResponse,
  TIMED_STEPS, type TimedStep, isOpenAssignment,
} from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { presentAmbulance } from '../presenters/presentAmbulance';
import { presentAssignment } from '../presenters/presentAssignment';
import { presentCase } from '../presenters/presentCase';
import { type UnitStatusSource, assignments, revokeUnitLinks, unitNamed, unitOnCall } from './assignmentService';
import { claimAmbulance, findCase, findCaseForUpdate, timelineActor } from './caseService';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { issueTrackingLinks, mailTrackingLinks, notifyDispatch } from './dispatchNotices';
import { conflict, notFound } from './errors';
import type { DomainEvent } from './events';
import { giveUnit } from './queueDispatchService';

type Record = (e: DomainEvent) => void;
type Staff = Actor & { type: 'user' };

const OPEN_CALL = ['pending', 'active'];
const reached = (s: string, step: TimedStep) => TIMED_STEPS.indexOf(s as TimedStep) >= TIMED_STEPS.indexOf(step);

async function publishAmbulance(trx: Knex.Transaction, id: number, record: Record) {
  const row = await ambulanceRepository.findById(trx, id);
  if (row) record({ type: 'ambulance.updated', ambulance: presentAmbulance(row) });
}

/**
 * The patient's tracking link followed a unit that left the call while another is still coming: a
 * new link for the call's primary unit, mailed as at a dispatch (only the patient: its crew has its own).
 */
async function retellPatient(trx: Knex.Transaction, ctx: ServiceContext, record: Record, actor: Staff, caseId: string, ambulanceId: number) {
  const ambulance = await ambulanceRepository.findById(trx, ambulanceId);
  if (!ambulance) return;
  const c = await findCase(trx, caseId);
  const links = await issueTrackingLinks(trx, ctx.config.publicUrl, c, ambulance, { driver: false });
  await mailTrackingLinks(trx, record, actor, c, ambulance, links, { patient: 'tracking' });
}

/**
 * A call's several units (issue 29): adding one, standing one down, and a crew's request for
 * backup. Each runs in one transaction and takes its rows in the order every write does: the
 * case, then the ambulance, then the assignment, so none deadlock with a dispatch or a step.
 */
export const callUnitsService = {
  /**
   * Adds a free unit to an open call. A waiting call (pending, or active without a unit) takes it
   * as a dispatch from the queue does; a running call gets one more assignment, its crew the driver
   * link at once, and the patient is not mailed again (help is already on its way). 409 when the
   * unit is not free or the call is over, 422 for an unknown unit; a refusal writes nothing.
   */
  addUnit: (ctx: ServiceContext, actor: Staff, caseId: string, ambulanceId: number) =>
    inTransaction(ctx, async (trx, record): Promise<AddUnitResponse> => {
      const c = await findCaseForUpdate(trx, caseId);
      if (!OPEN_CALL.includes(c.status)) throw conflict(`This call is ${c.status}; units are added to open calls only`);
      const ambulance = await claimAmbulance(trx, ambulanceId);
      const at = new Date().toISOString();
      const waiting = c.status === 'pending' || c.ambulance_id == null;
      if (waiting) {
        await giveUnit(trx, ctx, record, actor, c, ambulance, at, null);
      } else {
        const id = await assignments.start(trx, c.id, ambulance, at);
        await caseRepository.touch(trx, c.id);
        await caseEventRepository.insert(trx, {
          caseId: c.id, action: 'unit.added', actor: timelineActor(actor),
          after: unitNamed({ id, ambulance_id: ambulance.id, license_plate: ambulance.license_plate, capability: ambulance.capability }),
        });
        await notifyDispatch(trx, record, ctx, actor, await findCase(trx, c.id), ambulance, { patient: 'none' });
      }
      await assignments.settlePrimary(trx, c.id, actor);
      await publishAmbulance(trx, ambulance.id, record);
      const dto = presentCase(await findCase(trx, c.id));
      record({ type: 'case.updated', case: dto });
      const assignment = dto.assignments.find((a) => a.ambulance_id === ambulance.id && isOpenAssignment(a.status))!;
      return { case: dto, assignment };
    }),

  /**
   * Stands one unit down before it reaches the scene (NEMSIS eTimes.14): its assignment ends
   * cancelled with the reason on the timeline, the unit is free, its links end (an open driver page
   * waits for its next call). The call stays active while another unit is on it; when the last one
   * is stood down it goes back to the queue, or resolves if a unit of it had already reached the
   * patient and cleared. A unit that reached the scene clears rather than stands down (409).
   */
  standDown: (ctx: ServiceContext, actor: Staff, caseId: string, assignmentId: number, input: StandDownInput) =>
    inTransaction(ctx, async (trx, record): Promise<StandDownResponse> => {
      const c = await findCaseForUpdate(trx, caseId);
      const a = Number.isSafeInteger(assignmentId) && assignmentId > 0 ? await assignmentRepository.findById(trx, assignmentId) : undefined;
      if (!a || a.case_id !== c.id) throw notFound('Assignment not found');
      if (a.ambulance_id != null) await ambulanceRepository.lock(trx, a.ambulance_id);
      const open = (await assignmentRepository.findById(trx, a.id))!;
      const status = open.status as AssignmentStatus;
      if (!isOpenAssignment(status)) throw conflict(`${open.license_plate} is no longer on this call (it was ${status})`);
      if (reached(status, 'on_scene')) throw conflict(`${open.license_plate} has reached the scene; it clears when its work is done rather than being stood down`);
      const at = new Date().toISOString();
      await assignments.endOne(trx, open, 'reassigning', at);
      if (open.ambulance_id != null && await ambulanceRepository.release(trx, open.ambulance_id)) await publishAmbulance(trx, open.ambulance_id, record);
      await caseRepository.touch(trx, c.id);
      await caseEventRepository.insert(trx, {
        caseId: c.id, action: 'unit.cancelled', actor: timelineActor(actor),
        before: { status }, after: { ...unitNamed(open), status: 'cancelled', reason: input.reason },
      });
      const stillOn = await assignmentRepository.openForCase(trx, c.id);
      // The patient was told of the call's primary unit (at its dispatch): when it leaves, of the unit still coming instead.
      const patientWatched = Number(c.assignment_id) === open.id;
      if (stillOn.length > 0) {
        await revokeUnitLinks(trx, record, c.id, open.ambulance_id);
      } else {
        // Nobody left on the call: someone treated the patient (a unit cleared after reaching them), or it waits again.
        const treated = (await assignmentRepository.listForCase(trx, c.id)).some((x) => x.status === 'cleared' && x.on_scene_at != null);
        const next = treated ? { status: 'resolved', closed_at: at } : { status: 'pending', ambulance_id: null, closed_at: null };
        await caseRepository.update(trx, c.id, next, { before: c, plate: treated ? (c.license_plate ?? null) : null });
        await caseEventRepository.insert(trx, {
          caseId: c.id, action: 'updated', actor: timelineActor(actor),
          before: Object.fromEntries(Object.keys(next).map((k) => [k, c[k as keyof typeof c]])), after: next,
        });
        await revokeUnitLinks(trx, record, c.id, null);
      }
      const primary = await assignments.settlePrimary(trx, c.id, actor);
      if (patientWatched && stillOn.length > 0 && primary?.ambulance_id != null) await retellPatient(trx, ctx, record, actor, c.id, primary.ambulance_id);
      const dto = presentCase(await findCase(trx, c.id));
      record({ type: 'case.updated', case: dto });
      return { case: dto, assignment: presentAssignment((await assignmentRepository.findById(trx, open.id))!) };
    }),

  /**
   * A crew asks for backup: from its driver link (only for its own open assignment) or staff for
   * it. The call's timeline records it and every dispatcher hears `backup.requested` at once.
   * 409 when the unit is on no call.
   */
  requestBackup: (ctx: ServiceContext, ambulanceId: number, input: BackupRequestInput, source: UnitStatusSource) =>
    inTransaction(ctx, async (trx, record): Promise<BackupAlert> => {
      const { ambulance, open, movedMeanwhile } = await unitOnCall(trx, ambulanceId, source);
      if (!open || movedMeanwhile) throw conflict(`Ambulance ${ambulance.license_plate} is on no call`);
      const c = await findCase(trx, open.case_id);
      const at = new Date().toISOString();
      const request: BackupRequestState = { case_id: c.id, ambulance_id: ambulance.id, license_plate: ambulance.license_plate, note: input.note || null, at };
      const alert: BackupAlert = { ...request, priority: Number(c.priority) as Priority };
      const actor: Actor = source.type === 'staff' ? source.actor : { type: 'driver' };
      // Kept on the call as well as told: a board opened later (or offline now) still shows it until a unit answers.
      await caseRepository.setBackupRequest(trx, c.id, JSON.stringify(request));
      await caseEventRepository.insert(trx, {
        caseId: c.id, action: 'backup.requested', actor: timelineActor(actor),
        after: { ...unitNamed(open), note: alert.note },
      });
      record({ type: 'backup.requested', alert });
      record({ type: 'case.updated', case: presentCase(await findCase(trx, c.id)) });
      return alert;
    }),
};
