import type { Context, Next } from 'koa';
import { forbidden } from '../services/errors';
import { type AppState, authorize } from '../http/middleware/auth';
import { ruleFor } from './permissions';

interface RouteLayer { path: string | RegExp; methods: string[] }

/**
 * Router middleware (`router.use`, registered before every route) that checks each request
 * against its route's entry in `access` before the route's own middleware runs:
 * - a route with no entry is refused (403), so a new route cannot ship open by accident;
 * - `anyone` passes; so does the METRICS_TOKEN bearer on a `scraper` route;
 * - `links` without a bearer session passes to the handler, which checks the `?t=` token
 *   so that every bad link gets the same answer;
 * - otherwise the entry's permission decides (401 without a session, 403 for another role).
 */
export async function accessGuard(ctx: Context, next: Next) {
  // The route that will answer: the first layer in the router's order serving this path and method.
  const matched = ((ctx as any).matched ?? []) as RouteLayer[];
  const route = matched.find((l) => l.methods.includes(ctx.method));
  const rule = route && typeof route.path === 'string' ? ruleFor(ctx.method, route.path) : undefined;
  if (!rule) throw forbidden('No access rule is declared for this route');
  if (rule.anyone) return next();
  if (rule.scraper && (ctx.state as AppState).scraper) return next();
  if (rule.links && !(ctx.state as AppState).principal) return next();
  if (!rule.permission) return next(); // link-only route called with a session: the handler answers as for any bad link
  return authorize(rule.permission)(ctx, next);
}
