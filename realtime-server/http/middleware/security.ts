import type { Context, Middleware, Next } from 'koa';
import type { Config } from '../../config';
import { securityHeaderHandler } from '../../edge/securityHeaders';

/** Koa middleware: sets the headers before anything else runs, so errors, 404s and SPA files carry them too. */
export function securityHeaders(config: Pick<Config, 'tileUrl' | 'allowedOrigins'>): Middleware {
  const handler = securityHeaderHandler(config);
  return async (ctx: Context, next: Next) => {
    await new Promise<void>((resolve, reject: (err: Error) => void) => handler(ctx.req, ctx.res, (err) => (err ? reject(err as Error) : resolve())));
    await next();
  };
}

/** Link responses (tracking, location share, driver positions) and sign-in answers are never cached. */
export const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};

/**
 * `Cache-Control: no-store` on every answer whose path starts with one of `prefixes`, errors
 * included: set before the route runs, so a route that wants another policy sets its own.
 */
export function noStoreUnder(prefixes: readonly string[]): Middleware {
  return async (ctx, next) => {
    if (prefixes.some((p) => ctx.path.startsWith(p))) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
