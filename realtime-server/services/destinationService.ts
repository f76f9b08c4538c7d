import type { Knex } from 'knex';
import {
  type DestinationInput, type DestinationResponse, type PrealertInput, type PrealertLateAlert, type PrealertResponse,
  DESTINATION_REASON_LABELS, isOpenAssignment, type AssignmentStatus,
} from '../contract';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { hospitalRepository } from '../../db/repositories/hospitalRepository';
import { prealertRepository } from '../../db/repositories/prealertRepository';
import type { AssignmentRow } from '../../db/repositories/types';
import { presentAssignment } from '../presenters/presentAssignment';
import { presentCase } from '../presenters/presentCase';
import { presentDestination, presentPrealert } from '../presenters/presentHospital';
import { NOT_YOUR_ASSIGNMENT } from './assignmentService';
import { type Actor, type ServiceContext, inTransaction, timelineActor } from './context';
import { conflict, forbidden, notFound, unprocessable } from './errors';
import { systemClock } from './clock';

/** Staff, or a driver link (its grant's case and ambulance): the crew sets its own unit's destination and pre-alert only. */
export type CrewOrStaff = { type: 'staff'; actor: Actor & { type: 'user' } } | { type: 'driver'; caseId: string; ambulanceId: number };

const actorOf = (from: CrewOrStaff): Actor => (from.type === 'staff' ? from.actor : { type: 'driver' });

/**
 * The open assignment a request names, its case's row locked first (the order every write takes):
 * 404 for no such assignment on that call (403 to a driver link, which learns nothing of other
 * units), 403 for a driver link of another unit, 409 once the unit's part in the call is over.
 */
async function openAssignment(trx: Knex.Transaction, caseId: string, assignmentId: number, from: CrewOrStaff): Promise<AssignmentRow> {
  const unknown = () => (from.type === 'driver' ? forbidden(NOT_YOUR_ASSIGNMENT) : notFound('Assignment not found'));
  if (!Number.isSafeInteger(assignmentId) || assignmentId <= 0) throw unknown();
  const seen = await assignmentRepository.findById(trx, assignmentId);
  if (!seen || seen.case_id !== caseId) throw unknown();
  if (from.type === 'driver' && (from.caseId !== caseId || from.ambulanceId !== seen.ambulance_id)) throw forbidden(NOT_YOUR_ASSIGNMENT);
  await caseRepository.lock(trx, caseId);
  await assignmentRepository.lock(trx, assignmentId);
  const a = (await assignmentRepository.findById(trx, assignmentId))!;
  if (!isOpenAssignment(a.status as AssignmentStatus)) throw conflict(`${a.license_plate} is ${a.status}: its part in this call is over`);
  return a;
}

export const destinationService = {
  /**
   * Where a unit conveys its patient (eDisposition.01/.20), set by staff or the unit's crew; may be
   * changed (a diversion) while the unit is on the call. A hospital on diversion may be chosen (the
   * crew knows best), never silently: the suggestions flag it and the timeline keeps the reason.
   */
  setDestination: (ctx: ServiceContext, caseId: string, assignmentId: number, input: DestinationInput, from: CrewOrStaff) =>
    inTransaction(ctx, async (trx, record): Promise<DestinationResponse> => {
      const a = await openAssignment(trx, caseId, assignmentId, from);
      const h = await hospitalRepository.findById(trx, input.hospital_id);
      if (!h) throw unprocessable('hospital_id: no such hospital');
      const at = new Date().toISOString();
      await assignmentRepository.setDestination(trx, a.id, { hospital_id: h.id, name: h.name, reason: input.reason, at });
      await caseRepository.touch(trx, caseId);
      await caseEventRepository.insert(trx, {
        caseId, action: 'destination.set', actor: timelineActor(actorOf(from)),
        before: a.destination_name ? { hospital_id: a.destination_hospital_id, hospital: a.destination_name, reason: a.destination_reason } : null,
        after: { assignment_id: a.id, license_plate: a.license_plate, hospital_id: h.id, hospital: h.name, reason: input.reason, reason_text: DESTINATION_REASON_LABELS[input.reason] },
      });
      const row = (await caseRepository.findById(trx, caseId))!;
      record({ type: 'case.updated', case: presentCase(row) });
      // The hospital it was going to hears that it no longer is.
      if (a.destination_hospital_id != null && a.destination_hospital_id !== h.id) record({ type: 'hospital.changed', hospitalIds: [a.destination_hospital_id] });
      const assignment = presentAssignment((await assignmentRepository.findById(trx, a.id))!);
      return { assignment, destination: assignment.destination ?? presentDestination({ destination_hospital_id: h.id, destination_name: h.name, destination_reason: input.reason, destination_set_at: at })! };
    }),

  /**
   * An ATMIST pre-alert to the unit's destination (eDisposition.24/.25): needs a destination; a
   * second one (a corrected or worsened patient) is sent as another, acknowledged on its own.
   */
  sendPrealert: (ctx: ServiceContext, caseId: string, assignmentId: number, input: PrealertInput, from: CrewOrStaff) =>
    inTransaction(ctx, async (trx, record): Promise<PrealertResponse> => {
      const a = await openAssignment(trx, caseId, assignmentId, from);
      if (a.destination_hospital_id == null) throw conflict(`Choose ${a.license_plate}'s destination before sending a pre-alert`);
      const { activation, ...content } = input;
      const sentAt = new Date().toISOString();
      const id = await prealertRepository.insert(trx, {
        assignment_id: a.id, case_id: caseId, hospital_id: a.destination_hospital_id, activation, content: JSON.stringify(content), sent_at: sentAt,
      });
      await caseRepository.touch(trx, caseId);
      await caseEventRepository.insert(trx, {
        caseId, action: 'prealert.sent', actor: timelineActor(actorOf(from)),
        after: { prealert_id: id, assignment_id: a.id, license_plate: a.license_plate, hospital_id: a.destination_hospital_id, hospital: a.destination_name, activation },
      });
      record({ type: 'hospital.changed', hospitalIds: [a.destination_hospital_id] });
      record({ type: 'case.updated', case: presentCase((await caseRepository.findById(trx, caseId))!) });
      return { prealert: presentPrealert((await prealertRepository.findById(trx, id))!) };
    }),

  /**
   * Pre-alerts nobody acknowledged within PREALERT_ACK_AFTER: each alerts the dispatchers once (to
   * phone the hospital) and goes on its call's timeline. Several nodes may sweep at once: only the
   * one whose conditional update marks a pre-alert tells of it.
   */
  async sweepLateAcks(ctx: ServiceContext): Promise<number> {
    const now = (ctx.clock ?? systemClock).now();
    const before = new Date(now - ctx.config.prealertAckAfterS * 1000).toISOString();
    const late = await prealertRepository.unacknowledgedBefore(ctx.db, before);
    let told = 0;
    for (const p of late) {
      told += await inTransaction(ctx, async (trx, record) => {
        const at = new Date(now).toISOString();
        if (!(await prealertRepository.markAlerted(trx, p.id, at))) return 0;
        const a = await assignmentRepository.findById(trx, p.assignment_id);
        const c = await caseRepository.findById(trx, p.case_id);
        // Nobody to phone about: the unit is already there (or off the call), or a newer pre-alert replaced this one.
        if (!a || !c || a.status !== 'transporting' && a.status !== 'on_scene' && a.status !== 'en_route' && a.status !== 'dispatched') return 0;
        if ((await prealertRepository.latestFor(trx, [a.id])).get(a.id)?.id !== p.id) return 0;
        const hospital = (p.hospital_id != null ? (await hospitalRepository.findById(trx, p.hospital_id))?.name : null) ?? a.destination_name ?? 'the hospital';
        const alert: PrealertLateAlert = {
          prealert_id: p.id, case_id: p.case_id, assignment_id: a.id, hospital_id: p.hospital_id, hospital, license_plate: a.license_plate,
          priority: Number(c.priority), activation: p.activation, sent_at: p.sent_at, alerted_at: at,
        };
        await caseEventRepository.insert(trx, { caseId: p.case_id, action: 'prealert.late', actor: { type: 'system' }, after: { ...alert } });
        record({ type: 'prealert.late', alert });
        return 1;
      });
    }
    return told;
  },
};
