import { healthProbeRepository } from '../../../db/repositories/healthProbeRepository';
import { DomainError } from '../../services/errors';
import type { ConfigResponse } from '../../contract';
import type { Mount } from './types';

/**
 * Health answers 200 only when the node takes work: not while it shuts down, not while its
 * database refuses writes (services/storageHealth.ts: a recent storage failure that no write
 * probe has cleared yet; the check itself runs the probe, so health comes back by itself),
 * and only when the database answers. A 503 names the cause, never a stack. While all is well
 * a check writes nothing.
 */
export const mountHealth: Mount = (router, { svc }) => {
  router.get('/api/health', async (ctx) => {
    if (svc.lifecycle?.draining) throw new DomainError(503, 'This node is shutting down');
    const failing = await svc.storageHealth?.check();
    if (failing) throw new DomainError(503, `Database writes are failing: ${failing.code}`);
    try {
      await healthProbeRepository.answers(svc.db);
    } catch (err) {
      const code = (err as { code?: unknown })?.code;
      throw new DomainError(503, typeof code === 'string' && /^[\w-]{1,40}$/.test(code) ? `Database is not answering: ${code}` : 'Database is not answering');
    }
    ctx.body = { status: 'ok' };
  });
  /** What the web app needs to know of the server's configuration. */
  router.get('/api/config', (ctx) => {
    ctx.body = { tileUrl: svc.config.tileUrl, etaSpeedKmh: svc.config.etaSpeedKmh } satisfies ConfigResponse;
  });
};
