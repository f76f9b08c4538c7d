import { shareLocationSchema } from '../../contract';
import { caseService } from '../../services/caseService';
import { trackingService } from '../../services/trackingService';
import { linkRateLimit } from '../middleware/rateLimit';
import { noStore } from '../middleware/security';
import { routeId, validate } from '../validate';
import type { Mount } from './types';
import { requestGrant, requestTokenIssued } from '../linkGrant';

/** A public link's `?t=` token ('' when missing or repeated). */
const linkToken = (ctx: { query: Record<string, unknown> }) => (typeof ctx.query.t === 'string' ? ctx.query.t : '');

/** The calls that need no sign-in: the patient's location link (its state, its share) and a tracking link. */
export const mountPublic: Mount = (router, { svc }) => {
  // Counted per link (a location link by its case, a tracking link by its token); a link never issued counts apart.
  const locationLimit = linkRateLimit(svc, (ctx) => ({
    name: `location:${ctx.params.caseId}`, issued: () => caseService.locationLinkIssued(svc, ctx.params.caseId, linkToken(ctx)),
  }));
  const trackLimit = linkRateLimit(svc, (ctx) => {
    const t = linkToken(ctx);
    return t ? { name: `track:${t}`, issued: () => requestTokenIssued(ctx, svc, t) } : undefined;
  });
  // The patient's page asks at load, so a dead link says so before anyone presses Share; counted with the shares.
  router.get('/api/location/:caseId', { summary: "The patient's location link's state (usable, 404, 410), with the link's ?t= token", ok: { shape: 'LocationLinkState' } }, noStore, locationLimit, async (ctx) => {
    ctx.body = await caseService.locationLinkState(svc, ctx.params.caseId, linkToken(ctx));
  });
  router.post('/api/location/:caseId', { summary: "The patient shares a location through their link (?t= token; 410 once the case is no longer active)", body: shareLocationSchema, ok: { shape: 'SharedPosition' } }, noStore, locationLimit, async (ctx) => {
    const input = validate(shareLocationSchema, ctx.request.body);
    ctx.body = await caseService.shareLocation(svc, ctx.params.caseId, linkToken(ctx), input);
  });
  router.get('/api/track/:ambulanceId', { summary: "A tracking link's view: its ambulance, the call's state and destination", ok: { shape: 'TrackResponse' } }, noStore, trackLimit, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const id = routeId(ctx.params.ambulanceId, trackingService.LINK_NOT_FOUND);
    ctx.body = await trackingService.track(svc, id, await requestGrant(ctx, svc, linkToken(ctx)));
  });
};
