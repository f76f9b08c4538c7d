import type { Knex } from 'knex';
import { type AmbulanceCreateInput, type AmbulanceUpdateInput, type PositionInput, type PositionSourceName, TRAIL_MAX_POINTS, TRAIL_WINDOW_MS } from '../contract';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { ambulanceRepository, type AmbulanceFields, PlateTakenError } from '../../db/repositories/ambulanceRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { positionRepository } from '../../db/repositories/positionRepository';
import type { AmbulanceRow, Db } from '../../db/repositories/types';
import { ambulanceEdits, ambulancePolicy } from '../policies/ambulancePolicy';
import { presentAmbulance } from '../presenters/presentAmbulance';
import { conflict, forbidden, notFound } from './errors';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { unassignAmbulance } from './caseService';
import { positionWriter } from './positionWriter';

async function findAmbulance(db: Db, id: number): Promise<AmbulanceRow> {
  const row = Number.isSafeInteger(id) && id > 0 ? await ambulanceRepository.findById(db, id) : undefined;
  if (!row) throw notFound('Ambulance details not found');
  return row;
}

/**
 * The ambulance for a write, its row locked until the transaction ends: a status change, a
 * deletion and a dispatch claiming it (a conditional update of the same row) apply one after
 * the other on PostgreSQL, whose pool runs transactions at once.
 */
async function findAmbulanceForUpdate(trx: Knex.Transaction, id: number): Promise<AmbulanceRow> {
  if (Number.isSafeInteger(id) && id > 0) await ambulanceRepository.lock(trx, id);
  return findAmbulance(trx, id);
}

/** A plate is free unless another ambulance's plate reads the same (the look-alike key, ambulanceRepository.plateKey). */
async function assertPlateFree(trx: Knex.Transaction, plate: string, selfId?: number) {
  const other = await ambulanceRepository.findByPlate(trx, plate);
  if (other && other.id !== selfId) throw conflict(`An ambulance with license plate ${other.license_plate} already exists`);
}

/**
 * Writes a plate that assertPlateFree found free. Two writers may both find it free (PostgreSQL
 * runs them at once): the UNIQUE key lets one win, and the other gets the same 409, naming the
 * winner's plate (committed by then, so visible to the next statement).
 */
async function writePlate<T>(trx: Knex.Transaction, plate: string, selfId: number | undefined, write: () => Promise<T>): Promise<T> {
  await assertPlateFree(trx, plate, selfId);
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof PlateTakenError)) throw err;
    await assertPlateFree(trx, plate, selfId);
    throw conflict(`An ambulance with license plate ${plate} already exists`);
  }
}

/**
 * Staff (any ambulance), a driver link (which holds for one case's ambulance while the case is
 * active), or the ambulance's own GPS device reporting over the OsmAnd or OwnTracks protocol.
 */
export type PositionSource = { type: 'staff' } | { type: 'driver'; caseId: string } | { type: 'device'; protocol: 'osmand' | 'owntracks' };

/** The `source` a position from `from` is recorded with (contract POSITION_SOURCES). */
export const sourceName = (from: PositionSource): PositionSourceName => (from.type === 'device' ? from.protocol : from.type);

/** Whether the ambulance is on a call: an open assignment, as the primary unit or one of several. */
const onActiveCase = async (db: Db, id: number) => (await assignmentRepository.openForAmbulance(db, id)) !== undefined;

export const ambulanceService = {
  list: async (ctx: ServiceContext) => (await ambulanceRepository.list(ctx.db)).map(presentAmbulance),

  create: (ctx: ServiceContext, input: AmbulanceCreateInput) =>
    inTransaction(ctx, async (trx, record) => {
      const id = await writePlate(trx, input.license_plate, undefined, () => ambulanceRepository.insert(trx, {
        license_plate: input.license_plate,
        status: input.status,
        driver_email: input.email ?? null,
        capability: input.capability,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
      }));
      const ambulance = presentAmbulance((await ambulanceRepository.findById(trx, id))!);
      record({ type: 'ambulance.created', ambulance });
      return ambulance;
    }),

  /**
   * Admins may edit every field; other staff only the status. "busy" belongs to cases:
   * setting it on an ambulance already held by an active case is a no-op, on a free one a
   * 409; an ambulance on an active case cannot be made available or put in maintenance.
   */
  update: (ctx: ServiceContext, actor: Actor & { type: 'user' }, id: number, input: AmbulanceUpdateInput) =>
    inTransaction(ctx, async (trx, record) => {
      // A new plate changes the search text of the cases naming the ambulance: cases first, as in `remove`, so no deadlock.
      if (input.license_plate !== undefined) await caseRepository.lockReferencingAmbulance(trx, id);
      const before = await findAmbulanceForUpdate(trx, id);
      if (!ambulancePolicy.mayUpdate(actor, before, input)) throw forbidden("Only admins can change an ambulance's license plate, driver email or capability");
      const { plate: editsPlate, email: editsEmail, capability: editsCapability } = ambulanceEdits(before, input);
      const fields: AmbulanceFields = {};
      if (input.status !== undefined && input.status !== before.status) {
        const busyOnCase = await onActiveCase(trx, id);
        if (input.status === 'busy' && !busyOnCase) {
          throw conflict(`Ambulance ${before.license_plate} has no active case; it becomes busy when dispatched to one`);
        }
        if (input.status !== 'busy' && busyOnCase) {
          throw conflict(`Ambulance ${before.license_plate} is on an active case; close or reassign the case first`);
        }
        fields.status = input.status;
      }
      if (editsPlate) fields.license_plate = input.license_plate;
      if (editsEmail) fields.driver_email = input.email;
      // A unit on a call keeps the capability it was sent with on that assignment (reports count what was sent).
      if (editsCapability) fields.capability = input.capability;
      if (Object.keys(fields).length === 0) return presentAmbulance(before);
      const write = () => ambulanceRepository.update(trx, id, fields);
      await (editsPlate ? writePlate(trx, input.license_plate!, id, write) : write());
      if (editsPlate) await caseRepository.refreshSearchText(trx, { ambulanceId: id });
      const ambulance = presentAmbulance((await ambulanceRepository.findById(trx, id))!);
      record({ type: 'ambulance.updated', ambulance });
      return ambulance;
    }),

  /** Deletes an ambulance no active case holds; closed cases naming it are unassigned on their timelines. */
  remove: (ctx: ServiceContext, id: number, actor: Actor = { type: 'system' }) =>
    inTransaction(ctx, async (trx, record) => {
      // Cases first, then the ambulance: the order a case update takes them in, so the two never deadlock.
      await caseRepository.lockReferencingAmbulance(trx, id);
      const before = await findAmbulanceForUpdate(trx, id);
      if (await onActiveCase(trx, id)) {
        throw conflict(`Ambulance ${before.license_plate} is on an active case; close or reassign the case first`);
      }
      await unassignAmbulance(trx, record, id, actor);
      await ambulanceRepository.delete(trx, id);
      record({ type: 'ambulance.deleted', id });
    }),

  /**
   * Stores a position in the history and moves the latest one forward; a fix older than the
   * latest is kept in the history but never moves the marker. Answers whether it became the latest.
   * Positions arriving together share one transaction (group commit, services/positionWriter.ts);
   * each is still checked in it, fails alone, and is acknowledged and published after the commit.
   */
  recordPosition: (ctx: ServiceContext, id: number, input: PositionInput, from: PositionSource) =>
    positionWriter(ctx).write(id, input, from),

  /** An ambulance's recent path for staff: the last TRAIL_WINDOW_MS, at most TRAIL_MAX_POINTS fixes; 404 for an unknown ambulance. */
  async trail(ctx: ServiceContext, id: number) {
    await findAmbulance(ctx.db, id);
    return positionRepository.trail(ctx.db, id, new Date(Date.now() - TRAIL_WINDOW_MS).toISOString(), TRAIL_MAX_POINTS);
  },
};
