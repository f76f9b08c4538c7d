import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { type Permission, may, permissions } from '../../policies/permissions';
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

/** Reads a bearer token if one is sent; `authorize` decides whether it is needed. */
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

/** 401 without a valid session, 403 when the role may not do this. */
export const authorize = (permission: Permission) => async (ctx: Context, next: Next) => {
  const principal = (ctx.state as AppState).principal;
  if (!principal) throw unauthorized(ctx.get('authorization') ? 'Your session has expired or was revoked; please sign in again' : 'Authentication required');
  if (!may(principal.user.role, permission)) throw forbidden(permissions[permission].denied);
  await next();
};

/** The signed-in staff member as the actor of a change. */
export const actorOf = (ctx: Context): Actor & { type: 'user' } => {
  const { user } = (ctx.state as AppState).principal!;
  return { type: 'user', id: user.id, role: user.role };
};
