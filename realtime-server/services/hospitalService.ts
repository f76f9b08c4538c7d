import {
  type HospitalCreateInput, type HospitalDto, type HospitalPageDto, type HospitalStatusInput, type HospitalSuggestion, type HospitalCapability,
  type HospitalUpdateInput, type LatLon, type TimedStep, ARRIVED_STEPS, HOSPITAL_PAGE_KEEP_MS, TIMED_STEPS, arrivalSeconds, distanceMeters,
} from '../contract';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { hospitalRepository } from '../../db/repositories/hospitalRepository';
import { prealertRepository } from '../../db/repositories/prealertRepository';
import { userRepository } from '../../db/repositories/userRepository';
import type { Db, HospitalRow } from '../../db/repositories/types';
import { presentHospital, presentHospitalUnit, presentPrealert } from '../presenters/presentHospital';
import { presentCase } from '../presenters/presentCase';
import { caseRepository } from '../../db/repositories/caseRepository';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { etaModel } from './dispatchSuggestions';
import { conflict, forbidden, notFound } from './errors';
import { NOT_COMING_HERE } from './assignmentService';
import { hashToken, newToken } from './tokens';
import { systemClock } from './clock';

/** Every bad hospital link (unknown hospital, wrong or replaced token) gets this one answer. */
export const HOSPITAL_LINK_NOT_FOUND = 'Hospital link not found or replaced';
const NOT_FOUND = 'Hospital not found';
/** A hospital page's reads go on each shown call's timeline at most this often (as staff reads of a patient's location). */
export const HOSPITAL_VIEW_EVERY_MS = 10 * 60_000;

async function findHospital(db: Db, id: number): Promise<HospitalRow> {
  const row = Number.isSafeInteger(id) && id > 0 ? await hospitalRepository.findById(db, id) : undefined;
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** The hospital a `?t=` token opens, or the one 404 every bad link gets. */
export async function hospitalOfLink(db: Db, id: number, token: string): Promise<HospitalRow> {
  const row = token && Number.isSafeInteger(id) && id > 0 ? await hospitalRepository.findByLink(db, id, hashToken(token)) : undefined;
  if (!row) throw notFound(HOSPITAL_LINK_NOT_FOUND);
  return row;
}

/** Whose name a status change carries: the staff member's, or "Hospital" for its own page. */
async function setterName(db: Db, actor: Actor): Promise<string> {
  if (actor.type === 'user') return (await userRepository.findById(db, actor.id))?.name ?? 'Staff';
  return actor.type === 'hospital' ? 'Hospital' : 'System';
}

/**
 * Hospitals ranked for a conveyance from `from`: open ones by arrival (those able to take every
 * need first), then hospitals on diversion, flagged, by arrival: a diverting hospital is never
 * silently first.
 */
export function rankHospitals(hospitals: HospitalDto[], from: LatLon, needs: readonly HospitalCapability[], model: { road_factor: number; speed_kmh: number }): HospitalSuggestion[] {
  return hospitals.map((hospital) => {
    const distance = distanceMeters(from, hospital);
    const missing = needs.filter((n) => !hospital.capabilities.includes(n));
    return { hospital, distance_m: Math.round(distance), eta_s: arrivalSeconds(distance, model), meets_needs: missing.length === 0, missing, diversion: hospital.status === 'diversion' };
  }).sort((a, b) => Number(a.diversion) - Number(b.diversion) || Number(b.meets_needs) - Number(a.meets_needs) || a.eta_s - b.eta_s || a.hospital.id - b.hospital.id);
}

export const hospitalService = {
  list: async (ctx: ServiceContext) => (await hospitalRepository.list(ctx.db)).map(presentHospital),

  create: (ctx: ServiceContext, actor: Actor, input: HospitalCreateInput) =>
    inTransaction(ctx, async (trx, record) => {
      const id = await hospitalRepository.insert(trx, {
        ...input, status_reason: input.status_reason ?? null, status_updated_by: await setterName(trx, actor),
      });
      const hospital = presentHospital((await hospitalRepository.findById(trx, id))!);
      record({ type: 'hospital.updated', hospital });
      return hospital;
    }),

  update: (ctx: ServiceContext, actor: Actor, id: number, input: HospitalUpdateInput) =>
    inTransaction(ctx, async (trx, record) => {
      await findHospital(trx, id);
      await hospitalRepository.lock(trx, id);
      const statusTouched = input.status !== undefined || input.status_reason !== undefined;
      // Reopening clears the diversion's reason unless a new one is given.
      const reason = input.status === 'open' && input.status_reason === undefined ? { status_reason: null } : {};
      await hospitalRepository.update(trx, id, { ...input, ...reason, ...(statusTouched ? { status_updated_by: await setterName(trx, actor) } : {}) });
      const hospital = presentHospital((await hospitalRepository.findById(trx, id))!);
      record({ type: 'hospital.updated', hospital });
      return hospital;
    }),

  /** Deleting keeps history: assignments keep the destination's name, pre-alerts their times. */
  remove: (ctx: ServiceContext, id: number) =>
    inTransaction(ctx, async (trx, record) => {
      await findHospital(trx, id);
      await hospitalRepository.remove(trx, id);
      record({ type: 'hospital.deleted', id });
    }),

  /** A new page link, answered once: only its hash is kept, and it replaces (revokes) the one before. */
  makeLink: (ctx: ServiceContext, id: number) =>
    inTransaction(ctx, async (trx, record) => {
      await findHospital(trx, id);
      const token = newToken();
      await hospitalRepository.setLink(trx, id, hashToken(token));
      record({ type: 'hospital.updated', hospital: presentHospital((await hospitalRepository.findById(trx, id))!) });
      record({ type: 'hospital.linkRevoked', hospitalId: id });
      return { link: `${ctx.config.publicUrl}/hospital/${id}?t=${encodeURIComponent(token)}` };
    }),

  async suggest(ctx: ServiceContext, from: LatLon, needs: readonly HospitalCapability[]) {
    const [model, hospitals] = await Promise.all([etaModel(ctx), hospitalRepository.list(ctx.db)]);
    return { suggestions: rankHospitals(hospitals.map(presentHospital), from, needs, model) };
  },

  /**
   * The hospital's own page: units conveying to it (with their arrival estimate and pre-alert) and
   * units arrived (the handover clock), nothing of a call an hour after its handover, no patient's
   * name, contact or address. Each shown call's timeline records the read (HOSPITAL_VIEW_EVERY_MS).
   */
  async page(ctx: ServiceContext, id: number, token: string): Promise<HospitalPageDto> {
    const h = await hospitalOfLink(ctx.db, id, token);
    const now = (ctx.clock ?? systemClock).now();
    const since = new Date(now - HOSPITAL_PAGE_KEEP_MS).toISOString();
    const [model, rows] = await Promise.all([etaModel(ctx), assignmentRepository.forHospital(ctx.db, h.id, since)]);
    const prealerts = await prealertRepository.latestFor(ctx.db, rows.map((r) => r.id));
    const units = rows.map((r) => presentHospitalUnit(r, h, prealerts.get(r.id), model));
    await recordHospitalViews(ctx, h.id, [...new Set(rows.map((r) => r.case_id))], now);
    const hospital = presentHospital(h);
    return {
      hospital: {
        id: hospital.id, name: hospital.name, address: hospital.address, capabilities: hospital.capabilities, status: hospital.status,
        status_reason: hospital.status_reason, status_updated_at: hospital.status_updated_at, status_updated_by: hospital.status_updated_by,
      },
      inbound: units.filter((u) => u.status === 'transporting' || u.status === 'dispatched' || u.status === 'en_route' || u.status === 'on_scene'),
      arrived: units.filter((u) => ARRIVED_STEPS.includes(u.status) || (u.status === 'cleared' && (u.at_hospital_at != null || u.handover_at != null))),
      server_time: new Date(now).toISOString(),
    };
  },

  /** The hospital sets its own diversion status from its page (a diversion needs a reason). */
  setStatusByLink: async (ctx: ServiceContext, id: number, token: string, input: HospitalStatusInput) => {
    const h = await hospitalOfLink(ctx.db, id, token);
    return hospitalService.update(ctx, { type: 'hospital', id: h.id }, h.id, { status: input.status, status_reason: input.status_reason ?? null });
  },

  /** Whether this token was ever this hospital's link (the link counter counts a never-issued one apart). */
  linkIssued: async (ctx: ServiceContext, id: number, token: string) =>
    Number.isSafeInteger(id) && id > 0 && (await hospitalRepository.findByLink(ctx.db, id, hashToken(token))) !== undefined,

  /**
   * The ambulance of a unit conveyed to this hospital (its page presses its handover); 403 for any other
   * unit, 409 for one not conveying its patient yet: the hospital's press never skips the scene and the transport.
   */
  async unitArrivedHere(ctx: ServiceContext, id: number, token: string, assignmentId: number) {
    const h = await hospitalOfLink(ctx.db, id, token);
    const a = await assignmentRepository.findById(ctx.db, assignmentId);
    if (!a || a.destination_hospital_id !== h.id || a.ambulance_id == null) throw forbidden(NOT_COMING_HERE);
    const step = TIMED_STEPS.indexOf(a.status as TimedStep);
    if (step >= 0 && step < TIMED_STEPS.indexOf('transporting')) throw conflict(`${a.license_plate} is not conveying its patient here yet`);
    return { ambulanceId: a.ambulance_id };
  },

  /** The hospital acknowledges a pre-alert sent to it (once; a repeat answers the first acknowledgement). */
  acknowledge: async (ctx: ServiceContext, id: number, token: string, prealertId: number) => {
    const h = await hospitalOfLink(ctx.db, id, token);
    return inTransaction(ctx, async (trx, record) => {
      const p = Number.isSafeInteger(prealertId) && prealertId > 0 ? await prealertRepository.findById(trx, prealertId) : undefined;
      if (!p || p.hospital_id !== h.id) throw notFound('Pre-alert not found');
      const at = new Date().toISOString();
      if (await prealertRepository.acknowledge(trx, p.id, at)) {
        await caseEventRepository.insert(trx, {
          caseId: p.case_id, action: 'prealert.acknowledged', actor: { type: 'hospital', id: h.id },
          after: { prealert_id: p.id, assignment_id: p.assignment_id, hospital: h.name, acknowledged_at: at },
        });
        record({ type: 'hospital.changed', hospitalIds: [h.id] });
        // The call's card and its crew see the acknowledgement.
        await caseRepository.touch(trx, p.case_id);
        const row = await caseRepository.findById(trx, p.case_id);
        if (row) record({ type: 'case.updated', case: presentCase(row) });
        record({ type: 'prealert.acknowledged', alert: { prealert_id: p.id, case_id: p.case_id, assignment_id: p.assignment_id, hospital_id: h.id, hospital: h.name, acknowledged_at: at } });
      }
      return { prealert: presentPrealert((await prealertRepository.findById(trx, p.id))!) };
    });
  },
};

/** Each shown call's timeline records that the hospital's page read it, at most every HOSPITAL_VIEW_EVERY_MS per hospital and call. */
async function recordHospitalViews(ctx: ServiceContext, hospitalId: number, caseIds: string[], now: number) {
  if (!caseIds.length) return;
  await ctx.db.transaction(async (trx) => {
    const since = new Date(now - HOSPITAL_VIEW_EVERY_MS).toISOString();
    const recent = await caseEventRepository.recentlyByActor(trx, 'hospital.viewed', { type: 'hospital', id: hospitalId }, caseIds, since);
    for (const caseId of caseIds) {
      if (!recent.has(caseId)) await caseEventRepository.insert(trx, { caseId, action: 'hospital.viewed', actor: { type: 'hospital', id: hospitalId } });
    }
  });
}
