import { type ConfigResponse, TURNOUT_TARGET_S } from '../../contract';
import { etaModel } from '../../services/dispatchSuggestions';
import { healthService } from '../../services/healthService';
import type { Mount } from './types';

/** Health answers 200 only when the node takes work (healthService.check says when it does not). */
export const mountHealth: Mount = (router, { svc }) => {
  router.get('/api/health', { summary: 'Whether this node takes work: 200, or 503 while it drains or its storage fails', ok: { shape: '{ status: "ok" }' } }, async (ctx) => {
    await healthService.check(svc);
    ctx.body = { status: 'ok' };
  });
  /** What the web app needs to know of the server's configuration. */
  router.get('/api/config', { summary: "What the web app needs of the server's configuration (map tiles, arrival model, priorities)", ok: { shape: 'ConfigResponse' } }, async (ctx) => {
    // The arrival model in force (default or calibrated, read at most once a minute): the one every screen estimates with.
    const { road_factor, speed_kmh } = await etaModel(svc);
    ctx.body = {
      tileUrl: svc.config.tileUrl, etaSpeedKmh: svc.config.etaSpeedKmh, eta_model: { road_factor, speed_kmh }, priorities: svc.config.priorities, turnout_s: TURNOUT_TARGET_S, board_recent_hours: svc.config.boardRecentHours,
      stale_after_s: svc.config.staleAfterS, centre: svc.config.centre, priority_needs: svc.config.priorityNeeds, clock_stops: svc.config.clockStops,
      handover_targets: svc.config.handoverTargets, prealert_ack_after_s: svc.config.prealertAckAfterS,
    } satisfies ConfigResponse;
  });
};
