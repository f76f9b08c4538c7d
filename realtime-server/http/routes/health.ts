import { DomainError } from '../../services/errors';
import type { ConfigResponse } from '../../contract';
import type { Mount } from './types';

/** Health answers 200 only when the database answers (the app is created after migrating) and the node is not shutting down. */
export const mountHealth: Mount = (router, { svc }) => {
  router.get('/api/health', async (ctx) => {
    if (svc.lifecycle?.draining) throw new DomainError(503, 'This node is shutting down');
    await svc.db.raw('select 1');
    ctx.body = { status: 'ok' };
  });
  /** What the web app needs to know of the server's configuration. */
  router.get('/api/config', (ctx) => {
    ctx.body = { tileUrl: svc.config.tileUrl, etaSpeedKmh: svc.config.etaSpeedKmh } satisfies ConfigResponse;
  });
};
