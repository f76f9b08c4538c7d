import { type ConfigResponse, TURNOUT_TARGET_S } from '../../contract';
import { healthService } from '../../services/healthService';
import type { Mount } from './types';

/** Health answers 200 only when the node takes work (healthService.check says when it does not). */
export const mountHealth: Mount = (router, { svc }) => {
  router.get('/api/health', async (ctx) => {
    await healthService.check(svc);
    ctx.body = { status: 'ok' };
  });
  /** What the web app needs to know of the server's configuration. */
  router.get('/api/config', (ctx) => {
    ctx.body = {
      tileUrl: svc.config.tileUrl, etaSpeedKmh: svc.config.etaSpeedKmh, priorities: svc.config.priorities, turnout_s: TURNOUT_TARGET_S, board_recent_hours: svc.config.boardRecentHours,
      stale_after_s: svc.config.staleAfterS, centre: svc.config.centre,
    } satisfies ConfigResponse;
  });
};
