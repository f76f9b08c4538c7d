import { TRAIL_MAX_POINTS, TRAIL_WINDOW_MS, type TrackingInitiateInput, type TrackingInitiateResponse, type TrackResponse } from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { positionRepository } from '../../db/repositories/positionRepository';
import { trackTokenRepository } from '../../db/repositories/trackTokenRepository';
import type { CaseRow, TrackTokenRow } from '../../db/repositories/types';
import { linkPolicy } from '../policies/links';
import { presentTrack } from '../presenters/presentTrack';
import { conflict, notFound, unprocessable } from './errors';
import { type Actor, type ServiceContext, inTransaction } from './context';
import { issueTrackingLinks, mailTrackingLinks } from './dispatchNotices';
import { hashToken } from './tokens';

/** One answer for every bad link, so tokens cannot be probed. */
const LINK_NOT_FOUND = 'Tracking link not found or expired';
/**
 * Where a link's trail begins: the last TRAIL_WINDOW_MS, but never before its case was dispatched,
 * so that a link shows only the path driven for its own patient (not where the crew stood
 * during the case before).
 */
function trailStart(c: CaseRow): string {
  const recent = new Date(Date.now() - TRAIL_WINDOW_MS).toISOString();
  return c.dispatched_at && c.dispatched_at > recent ? c.dispatched_at : recent;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
      if (c.ambulance_id !== input.ambulanceId) throw conflict('No active case assigned to this ambulance.');
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

  /** The live grant behind a tracking or driver token, or undefined. */
  resolveGrant: (ctx: ServiceContext, token: string): Promise<TrackTokenRow | undefined> =>
    token ? trackTokenRepository.findLive(ctx.db, hashToken(token)) : Promise.resolve(undefined),

  async track(ctx: ServiceContext, ambulanceId: number, token: string): Promise<TrackResponse> {
    const grant = await trackingService.resolveGrant(ctx, token);
    if (!linkPolicy.watches(grant, ambulanceId)) throw notFound(LINK_NOT_FOUND);
    const [a, c] = await Promise.all([ambulanceRepository.findById(ctx.db, ambulanceId), caseRepository.findById(ctx.db, grant.case_id)]);
    if (!a || !c) throw notFound(LINK_NOT_FOUND);
    const trail = await positionRepository.trail(ctx.db, a.id, trailStart(c), TRAIL_MAX_POINTS);
    return presentTrack({ ambulance: a, case: c, trail, role: grant.kind, etaSpeedKmh: ctx.config.etaSpeedKmh });
  },

  LINK_NOT_FOUND,
};
