import { healthProbeRepository } from '../../db/repositories/healthProbeRepository';
import type { ServiceContext } from './context';
import { DomainError } from './errors';

export const healthService = {
  /**
   * Resolves when the node takes work: not while it shuts down, not while its database
   * refuses writes (storageHealth.ts: a recent storage failure that no write probe has cleared
   * yet; the check itself runs the probe, so health comes back by itself), and only when the
   * database answers. Otherwise a 503 that names the cause, never a stack. While all is well
   * a check writes nothing.
   */
  async check(ctx: ServiceContext) {
    if (ctx.lifecycle?.draining) throw new DomainError(503, 'This node is shutting down');
    const failing = await ctx.storageHealth?.check();
    if (failing) throw new DomainError(503, `Database writes are failing: ${failing.code}`);
    try {
      await healthProbeRepository.answers(ctx.db);
    } catch (err) {
      const code = (err as { code?: unknown })?.code;
      throw new DomainError(503, typeof code === 'string' && /^[\w-]{1,40}$/.test(code) ? `Database is not answering: ${code}` : 'Database is not answering');
    }
  },
};
