import type { Mount } from './types';

/** Prometheus text format; who may read it is declared in policies/permissions.ts. */
export const mountMetrics: Mount = (router, { svc }) => {
  router.get('/api/metrics', { summary: "Prometheus text: this node's metrics (404 when they are not collected)", ok: { type: 'text/plain' } }, async (ctx) => {
    if (!svc.metrics) {
      ctx.status = 404;
      ctx.body = { error: 'Metrics are not collected by this server' };
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = svc.metrics.contentType;
    ctx.body = await svc.metrics.text();
  });
};
