import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { type AccessRule, may, permissions } from '../../policies/permissions';
import { type Principal, authService } from '../../services/authService';
import type { Actor, ServiceContext } from '../../services/context';
import { forbidden, unauthorized } from '../../services/errors';

export interface AppState {
  principal?: Principal;
  /** The request bears METRICS_TOKEN: it may read metrics, nothing else. */
  scraper?: true;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
/** Compares two secrets in constant time (as digests, so their lengths leak nothing either). */
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export const bearerToken = (header: string | undefined) => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : undefined;
};

/** Reads a bearer token if one is sent; the route's `gate` decides whether it is needed. */
export const authenticate = (svc: ServiceContext) => async (ctx: Context, next: Next) => {
  const token = bearerToken(ctx.get('authorization'));
  if (token && token.length <= 200) {
    if (svc.config.metricsToken && sameSecret(token, svc.config.metricsToken)) (ctx.state as AppState).scraper = true;
    else {
      const principal = await authService.authenticate(svc, token);
      if (principal) (ctx.state as AppState).principal = principal;
    }
  }
  await next();
};

/** The 401 of a request that needs a session: a bearer token that was sent is named as expired. */
export const sessionRequired = (ctx: Context) =>
  unauthorized(ctx.get('authorization') ? 'Your session has expired or was revoked; please sign in again' : 'Authentication required');

/**
 * A route's gate, made from its entry in `access` (http/gatedRouter.ts runs it before the
 * route's own middleware):
 * - no entry: refused (403), so a new route cannot ship open by accident;
 * - `anyone` passes; so does the METRICS_TOKEN bearer on a `scraper` route;
 * - `links` without a bearer session passes to the handler, which checks the `?t=` token
 *   so that every bad link gets the same answer; a link-only route called with a session
 *   passes too, and the handler answers as for any bad link;
 * - otherwise the entry's permission decides (401 without a session, 403 for another role).
 */
export const gate = (rule: AccessRule | undefined) => async (ctx: Context, next: Next) => {
  if (!rule) throw forbidden('No access rule is declared for this route');
  const { principal, scraper } = ctx.state as AppState;
  if (rule.anyone || (rule.scraper && scraper) || (rule.links && !principal) || !rule.permission) {
    await next();
    return;
  }
  if (!principal) throw sessionRequired(ctx);
  if (!may(principal.user.role, rule.permission)) throw forbidden(permissions[rule.permission].denied);
  await next();
};

/** The signed-in staff member as the actor of a change. */
export const actorOf = (ctx: Context): Actor & { type: 'user' } => {
  const { user } = (ctx.state as AppState).principal!;
  return { type: 'user', id: user.id, role: user.role };
};
