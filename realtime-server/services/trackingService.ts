import {
  TRAIL_MAX_POINTS, TRAIL_WINDOW_MS, type DriverDispatched, type DriverStandby, type Priority, type TrackingInitiateInput,
  type TrackingInitiateResponse, type TrackResponse,
} from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { positionRepository } from '../../db/repositories/positionRepository';
import { trackTokenRepository } from '../../db/repositories/trackTokenRepository';
import type { CaseRow, TrackTokenRow } from '../../db/repositories/types';
import { linkPolicy } from '../policies/links';
import { presentUnits } from '../presenters/presentAssignment';
import { presentTrack, unitAssignment } from '../presenters/presentTrack';
import { etaModel } from './dispatchSuggestions';
import { conflict, notFound, unprocessable } from './errors';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { issueTrackingLinks, mailTrackingLinks } from './dispatchNotices';
import { hashToken, newToken } from './tokens';

/** One answer for every bad link, so tokens cannot be probed. */
const LINK_NOT_FOUND = 'Tracking link not found or expired';
/**
 * Where a link's trail begins: the last TRAIL_WINDOW_MS, but never before its unit was dispatched to the case,
 * so that a link shows only the path driven for its own patient (not where the crew stood
 * during the case before).
 */
function trailStart(c: CaseRow, ambulanceId: number): string {
  const recent = new Date(Date.now() - TRAIL_WINDOW_MS).toISOString();
  const dispatched = unitAssignment({ assignments: presentUnits(c) }, ambulanceId)?.dispatched_at ?? c.dispatched_at;
  return dispatched && dispatched > recent ? dispatched : recent;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A driver link waiting for its ambulance's next call (policies/links.ts standbyUntil), as its socket holds it. */
export interface StandbyGrant extends DriverStandby {
  /** The link's own assignment that ended: only a later one of the ambulance is offered. */
  endedAssignmentId: number;
}

export const trackingService = {
  /**
   * Send Tracker: creates a viewer token (watch only) and a driver token (may also send positions)
   * for an active case and its assigned ambulance, and queues the patient's and the driver's
   * e-mails, as a dispatch does (dispatchNotices). For re-sending: the case's earlier links keep
   * working.
   */
  initiate: (ctx: ServiceContext, actor: Actor & { type: 'user' }, input: TrackingInitiateInput) =>
    inTransaction(ctx, async (trx, record): Promise<TrackingInitiateResponse> => {
      const c = UUID.test(input.caseId) ? await caseRepository.findById(trx, input.caseId) : undefined;
      if (!c) throw notFound('Case not found');
      if (c.status !== 'active') throw conflict('This case is no longer active');
      if (!(await assignmentRepository.openFor(trx, c.id, input.ambulanceId))) throw conflict('No active case assigned to this ambulance.');
      const ambulance = await ambulanceRepository.findById(trx, input.ambulanceId);
      if (!ambulance) throw notFound('Ambulance details not found');
      if (!ambulance.driver_email) {
        throw unprocessable(`Ambulance ${ambulance.license_plate} has no driver email; add one in Manage Ambulances first`);
      }
      const links = await issueTrackingLinks(trx, ctx.config.publicUrl, c, ambulance, { driver: true });
      await mailTrackingLinks(trx, record, actor, c, ambulance, links, { patient: 'tracking' });
      return {
        success: true,
        message: 'Tracking emails sent successfully!',
        caseId: c.id,
        ambulanceId: ambulance.id,
        patientEmail: c.patient_email,
        driverEmail: ambulance.driver_email,
      };
    }),

  /**
   * The standby of a driver token that no longer drives (policies/links.ts standbyUntil), or
   * undefined: only asked once `resolveGrant` found no live grant.
   */
  async standby(ctx: ServiceContext, token: string, now = Date.now()): Promise<StandbyGrant | undefined> {
    const grant = token ? await trackTokenRepository.findAny(ctx.db, hashToken(token)) : undefined;
    if (grant?.kind !== 'driver') return undefined;
    const ended = await assignmentRepository.lastEnded(ctx.db, grant.case_id, grant.ambulance_id);
    const next = ended && await assignmentRepository.nextForAmbulance(ctx.db, grant.ambulance_id, ended.id);
    const until = linkPolicy.standbyUntil(grant, ended, now, next);
    const ambulance = until ? await ambulanceRepository.findById(ctx.db, grant.ambulance_id) : undefined;
    if (!until || !ended || !ambulance) return undefined;
    return {
      ambulanceId: ambulance.id, license_plate: ambulance.license_plate, caseId: grant.case_id,
      ended: ended.status as DriverStandby['ended'], until, endedAssignmentId: ended.id,
    };
  },

  /**
   * A waiting driver link's next call: when its ambulance now has an open assignment later than
   * the link's own (and not the one `offered` already), on an active case that holds it, a new
   * driver link for that call (its own token, on the call's timeline as handed to the crew's open
   * page); else null (nothing to offer). Only a driver token, and no mail: the links that are mailed
   * (at dispatch, by Send Tracker) are dispatchNotices' issueTrackingLinks.
   */
  handOver: (ctx: ServiceContext, standby: StandbyGrant, offered?: number) =>
    inTransaction(ctx, async (trx): Promise<{ assignmentId: number; dispatched: DriverDispatched } | null> => {
      const open = await assignmentRepository.openForAmbulance(trx, standby.ambulanceId);
      // Only the ambulance's next call after the link's own (linkPolicy.followsTo), and once per waiting page.
      const next = await assignmentRepository.nextForAmbulance(trx, standby.ambulanceId, standby.endedAssignmentId);
      if (!open || !next || open.id !== next.id || !linkPolicy.followsTo(next, standby.until) || open.id === offered) return null;
      await caseRepository.lock(trx, open.case_id);
      const c = await caseRepository.findById(trx, open.case_id);
      // The ambulance's open assignment is on this case: it still drives while the case is active.
      if (!c || !linkPolicy.stillDrives(c)) return null;
      const token = newToken();
      await trackTokenRepository.insert(trx, { token_hash: hashToken(token), kind: 'driver', case_id: c.id, ambulance_id: standby.ambulanceId });
      await caseEventRepository.insert(trx, {
        caseId: c.id, action: 'tracking', actor: { type: 'system' },
        after: { ambulance_id: standby.ambulanceId, driver_link: 'handed to the crew\'s open driver page', from_case_id: standby.caseId },
      });
      return {
        assignmentId: open.id,
        dispatched: {
          ambulanceId: standby.ambulanceId, caseId: c.id, priority: Number(c.priority) as Priority,
          link: `/driver/${standby.ambulanceId}?t=${token}`, from: { caseId: standby.caseId, ended: standby.ended },
        },
      };
    }),

  /** Whether a tracking or driver token was ever issued (live or not): for counting its calls apart from wrong tokens. */
  tokenIssued: async (ctx: ServiceContext, token: string): Promise<boolean> =>
    Boolean(token && await trackTokenRepository.findAny(ctx.db, hashToken(token))),

  /** The live grant behind a tracking or driver token, or undefined. */
  resolveGrant: (ctx: ServiceContext, token: string): Promise<TrackTokenRow | undefined> =>
    token ? trackTokenRepository.findLive(ctx.db, hashToken(token)) : Promise.resolve(undefined),

  /** GET /api/track for the live grant of the link's token (resolveGrant; undefined: none). */
  async track(ctx: ServiceContext, ambulanceId: number, grant: TrackTokenRow | undefined): Promise<TrackResponse> {
    if (!linkPolicy.watches(grant, ambulanceId)) throw notFound(LINK_NOT_FOUND);
    const [a, c] = await Promise.all([ambulanceRepository.findById(ctx.db, ambulanceId), caseRepository.findById(ctx.db, grant.case_id)]);
    if (!a || !c) throw notFound(LINK_NOT_FOUND);
    const [trail, model] = await Promise.all([positionRepository.trail(ctx.db, a.id, trailStart(c, a.id), TRAIL_MAX_POINTS), etaModel(ctx)]);
    return presentTrack({ ambulance: a, case: c, trail, role: grant.kind, etaSpeedKmh: ctx.config.etaSpeedKmh, etaModel: model });
  },

  LINK_NOT_FOUND,
};
