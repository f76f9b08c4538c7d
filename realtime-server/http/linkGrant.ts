import type { Context } from 'koa';
import type { ServiceContext } from '../services/context';
import { trackingService } from '../services/trackingService';

type Grant = Awaited<ReturnType<typeof trackingService.resolveGrant>>;

/**
 * The live grant of this request's tracking or driver token, looked up once: the link limit
 * (was the link issued?) and the route (what may it see or send?) both need it, on the
 * hottest requests there are (a device's positions, a tracking page's polls).
 */
export function requestGrant(ctx: Context, svc: ServiceContext, token: string): Promise<Grant> {
  const state = ctx.state as { linkGrant?: Promise<Grant> };
  return (state.linkGrant ??= trackingService.resolveGrant(svc, token));
}

/** Whether the token was ever issued: a live grant was; only a token without one is looked up again, live or not. */
export async function requestTokenIssued(ctx: Context, svc: ServiceContext, token: string): Promise<boolean> {
  return (await requestGrant(ctx, svc, token)) !== undefined || trackingService.tokenIssued(svc, token);
}
