import type { Context } from 'koa';

/**
 * Aborts when the client goes away before its answer is written (a closed tab, a cancelled
 * fetch), so that work queued for it (a turn at the geocoder) can be given up.
 */
export function clientGone(ctx: Context): AbortSignal {
  const gone = new AbortController();
  ctx.res.once('close', () => { if (!ctx.res.writableFinished) gone.abort(); });
  return gone.signal;
}
