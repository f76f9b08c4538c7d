import type { Context, Next } from 'koa';
import { badRequest } from '../../services/errors';

/** No request body the API takes nests deeper than this (objects and arrays). */
export const MAX_BODY_DEPTH = 32;

/** How deeply a parsed JSON value nests, counted without recursion (a 5000-level array must not overflow the stack). */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const d = depth + 1;
    if (d > deepest) deepest = d;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d]);
  }
  return deepest;
}

/**
 * Refuses a JSON body nested deeper than any request needs (400), before any middleware
 * walks it (recursive hashing or cloning of a 5000-level body would overflow the stack: a 500).
 */
export const limitBodyDepth = (max = MAX_BODY_DEPTH) => async (ctx: Context, next: Next) => {
  if (jsonDepth(ctx.request.body, max) > max) throw badRequest(`Request body is nested too deeply (at most ${max} levels)`);
  await next();
};
