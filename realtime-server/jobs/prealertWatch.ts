import { asBackground } from '../services/backgroundWork';
import type { ServiceContext } from '../services/context';
import { destinationService } from '../services/destinationService';

/** How often each node looks for late acknowledgements (a tenth of PREALERT_ACK_AFTER, between 1 and 15 s). */
export const prealertSweepEveryMs = (ackAfterS: number) => Math.min(15_000, Math.max(1_000, ackAfterS * 100));

/** Starts the late-acknowledgement sweep on this node. */
export function startPrealertWatch(ctx: ServiceContext) {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    running = asBackground('prealert-watch', () => destinationService.sweepLateAcks(ctx))
      .catch((err) => { if (!stopped) ctx.log.error({ err }, 'pre-alert acknowledgement check failed'); })
      .finally(() => { running = undefined; });
  };
  const timer = setInterval(pass, prealertSweepEveryMs(ctx.config.prealertAckAfterS));
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
