import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { redisNames } from '../../realtime/cluster';
import type { ServiceContext } from '../../services/context';
import { DomainError } from '../../services/errors';
import { requestIp, trustFor } from './clientIp';

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const LINK_WINDOW_SECONDS = 60;

/**
 * The one place the counters' store is chosen. One node keeps them in memory; several nodes
 * (REDIS_URL) keep them in Redis so a limit holds across nodes, with a memory limiter as
 * insurance while Redis does not answer (each node then counts alone rather than not at all).
 */
function createLimiter(svc: ServiceContext, opts: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  if (!svc.redis) return new RateLimiterMemory(opts);
  return new RateLimiterRedis({
    ...opts,
    keyPrefix: `${redisNames(svc.config.redisPrefix).limits}:${opts.keyPrefix}`,
    storeClient: svc.redis,
    insuranceLimiter: new RateLimiterMemory(opts),
  });
}

export interface RateLimits {
  /** Sign-in attempts per account (normalised e-mail), counted until a sign-in completes. */
  signinAccount: RateLimiterAbstract;
  /** Failed sign-in attempts per client address. */
  signinIp: RateLimiterAbstract;
  /** Calls per link token (tracking, driver positions) or per case id (location share). */
  link: RateLimiterAbstract;
}

const bySvc = new WeakMap<ServiceContext, RateLimits>();

/** This server's limiters (made on first use; createApp makes them at start so a bad TRUSTED_PROXY fails early). */
export function rateLimits(svc: ServiceContext): RateLimits {
  let limits = bySvc.get(svc);
  if (!limits) {
    const { config } = svc;
    trustFor(config);
    limits = {
      signinAccount: createLimiter(svc, { keyPrefix: 'signin-account', points: config.limits.signinPerAccount, duration: SIGNIN_WINDOW_SECONDS }),
      signinIp: createLimiter(svc, { keyPrefix: 'signin-ip', points: config.limits.signinPerIp, duration: SIGNIN_WINDOW_SECONDS }),
      link: createLimiter(svc, { keyPrefix: 'link', points: config.limits.linkPerMinute, duration: LINK_WINDOW_SECONDS }),
    };
    bySvc.set(svc, limits);
  }
  return limits;
}

/** E-mails and tokens are counted under a hash: a counter store never holds a credential. */
const hashed = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
export const signinRefusal = (ms: number) => `Too many sign-in attempts. Try again in ${plural(Math.max(1, Math.ceil(ms / 60_000)), 'minute')}.`;
export const linkRefusal = (ms: number) => `Too many requests. Try again in ${plural(Math.max(1, Math.ceil(ms / 1000)), 'second')}.`;

/** 429 with `Retry-After` (whole seconds). The error middleware keeps the header. */
function refuse(ctx: Context, msBeforeNext: number, message: (ms: number) => string): never {
  ctx.set('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
  throw new DomainError(429, message(msBeforeNext));
}

/**
 * Takes one point: how long until the next is allowed when over the limit, else undefined.
 * A failing store (Redis down and no insurance) lets the call through and logs: refusing
 * every sign-in because a counter is down would be worse.
 */
async function overLimit(svc: ServiceContext, limiter: RateLimiterAbstract, key: string): Promise<number | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (res) {
    if (res instanceof RateLimiterRes) return res.msBeforeNext;
    svc.log.warn({ err: res }, 'rate limiter unavailable; call let through');
    return undefined;
  }
}

/** Takes one point; over the limit answers 429. */
async function take(ctx: Context, svc: ServiceContext, limiter: RateLimiterAbstract, key: string, message: (ms: number) => string) {
  const ms = await overLimit(svc, limiter, key);
  if (ms !== undefined) refuse(ctx, ms, message);
}

const quietly = (p: Promise<unknown>) => p.then(() => {}, () => {});

/**
 * Counts a sign-in attempt (POST /api/auth/signin and /verify) against the client address
 * and, when known, the account; over either limit the attempt is refused with 429 before any
 * credential is looked at. `run` then decides what stays counted: a refusal (401) counts
 * against both; a matching account is no failure for the address; a completed sign-in
 * (a session issued) clears the account's count.
 */
export async function signinAttempt(ctx: Context, svc: ServiceContext, email: string | undefined) {
  const limits = rateLimits(svc);
  const ipKey = requestIp(ctx, svc.config);
  const accountKey = email ? hashed(email.trim().toLowerCase()) : undefined;
  await take(ctx, svc, limits.signinIp, ipKey, signinRefusal);
  if (accountKey) {
    try {
      await take(ctx, svc, limits.signinAccount, accountKey, signinRefusal);
    } catch (err) {
      await quietly(limits.signinIp.reward(ipKey));
      throw err;
    }
  }
  return {
    async run<T>(work: () => Promise<T>, completed: (result: T) => boolean): Promise<T> {
      let result: T;
      try {
        result = await work();
      } catch (err) {
        if (!(err instanceof DomainError && err.status === 401)) {
          // Not a wrong credential (a bug, a database hiccup): not the caller's attempt to pay for.
          await quietly(limits.signinIp.reward(ipKey));
          if (accountKey) await quietly(limits.signinAccount.reward(accountKey));
        }
        throw err;
      }
      await quietly(limits.signinIp.reward(ipKey));
      if (accountKey && completed(result)) await quietly(limits.signinAccount.delete(accountKey));
      return result;
    },
  };
}

/**
 * Limits calls per link: `keyOf` names what is counted (e.g. `track:<token>`), or nothing
 * to let the call through uncounted (a staff member's bearer call).
 */
export const linkRateLimit = (svc: ServiceContext, keyOf: (ctx: Context) => string | undefined): Middleware => async (ctx, next) => {
  const key = keyOf(ctx);
  if (key) await take(ctx, svc, rateLimits(svc).link, hashed(key), linkRefusal);
  await next();
};

/** The counter key of a link call (`driver:<token>`), hashed: safe to keep in a socket's data. */
export const linkCounterKey = (name: string) => hashed(name);

/**
 * The same per-link count for a call that is not HTTP (a driver socket's position): the
 * refusal's text when over the limit, otherwise undefined. A socket counts under the same
 * key as the link's REST calls, so switching transport gains nothing.
 */
export async function linkCallRefusal(svc: ServiceContext, counterKey: string): Promise<string | undefined> {
  const ms = await overLimit(svc, rateLimits(svc).link, counterKey);
  return ms === undefined ? undefined : linkRefusal(ms);
}
