import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type Config, redisNames } from '../config';
import { type ProxyTrust, proxyTrust } from './clientIp';

/**
 * The counters behind sign-in and link limits, shared by REST and sockets (http/middleware/rateLimit.ts
 * is the Koa side; a driver socket's positions count under the same keys).
 */

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const LINK_WINDOW_SECONDS = 60;
/** The longest a client waits before its next try on an account. */
export const SIGNIN_MAX_WAIT_SECONDS = 15 * 60;
/** How long one client's failures on one account are remembered (from the first; a session forgets them). */
export const SIGNIN_PAIR_MEMORY_SECONDS = 60 * 60;

export interface RateLimits {
  /** Failed sign-in attempts per client key, on any account. */
  signinClient: RateLimiterAbstract;
  /** Failed sign-in attempts (and those still running) per account × client key, until a session is issued. */
  signinPair: RateLimiterAbstract;
  /** The wait an account × client key is in: the attempt that opened it goes ahead, the others in it are refused. */
  signinPairWait: RateLimiterAbstract;
  /** Failed sign-ins per account from any client: SIGNIN_LIMIT_ACCOUNT of them mean the account is under attack. */
  signinAccountFailures: RateLimiterAbstract;
  /**
   * Sign-in codes mailed per account (SIGNIN_LIMIT_ACCOUNT in 15 minutes), from any clients: caps what
   * strangers can have mailed. Spent, it refuses only a sign-in with no live code to enter.
   */
  signinCodeMails: RateLimiterAbstract;
  /** Sign-in codes mailed per account × client key (SIGNIN_CODE_MAILS_PER_CLIENT in 15 minutes): one client cannot spend the account's. */
  signinCodeMailsClient: RateLimiterAbstract;
  /** Calls per link × client key (a tracking or driver token, a patient's location link, a staff member's ambulance). */
  link: RateLimiterAbstract;
  /** Public link calls per client key, on any link (issued links only). */
  linkClient: RateLimiterAbstract;
  /**
   * Public calls with a link that was never issued (a wrong token, case or device id) per client key:
   * counted apart, so that strangers behind the same address (a carrier's NAT) spend nothing of a
   * right link's counts.
   */
  linkFailures: RateLimiterAbstract;
  /** TRUSTED_PROXY, read once: who may name the client in X-Forwarded-For. */
  proxies: ProxyTrust;
}

/**
 * This server's limiters, made once at start (a bad TRUSTED_PROXY throws here, before any
 * request). The one place the counters' store is chosen: one node keeps them in memory; several
 * nodes (REDIS_URL) keep them in Redis so a limit holds across nodes, with a memory limiter as
 * insurance while Redis does not answer (each node then counts alone rather than not at all).
 */
export function createRateLimits(config: Config, redis?: Redis): RateLimits {
  const proxies = proxyTrust(config.trustedProxies);
  const limiter = (opts: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({
        ...opts,
        keyPrefix: `${redisNames(config.redisPrefix).limits}:${opts.keyPrefix}`,
        storeClient: redis,
        insuranceLimiter: new RateLimiterMemory(opts),
      })
      : new RateLimiterMemory(opts);
  return {
    signinClient: limiter({ keyPrefix: 'signin-client', points: config.limits.signinPerIp, duration: SIGNIN_WINDOW_SECONDS }),
    signinPair: limiter({ keyPrefix: 'signin-pair', points: config.signinBackoff.after, duration: SIGNIN_PAIR_MEMORY_SECONDS }),
    signinPairWait: limiter({ keyPrefix: 'signin-wait', points: 1, duration: SIGNIN_MAX_WAIT_SECONDS }),
    signinAccountFailures: limiter({ keyPrefix: 'signin-account-failures', points: config.limits.signinPerAccount, duration: SIGNIN_WINDOW_SECONDS }),
    signinCodeMails: limiter({ keyPrefix: 'signin-code-mails', points: config.limits.signinPerAccount, duration: SIGNIN_WINDOW_SECONDS }),
    signinCodeMailsClient: limiter({ keyPrefix: 'signin-code-mails-client', points: config.limits.codeMailsPerClient, duration: SIGNIN_WINDOW_SECONDS }),
    link: limiter({ keyPrefix: 'link', points: config.limits.linkPerMinute, duration: LINK_WINDOW_SECONDS }),
    linkClient: limiter({ keyPrefix: 'link-client', points: config.limits.linkPerClientPerMinute, duration: LINK_WINDOW_SECONDS }),
    linkFailures: limiter({ keyPrefix: 'link-failures', points: config.limits.linkPerMinute, duration: LINK_WINDOW_SECONDS }),
    proxies,
  };
}

/** E-mails and tokens are counted under a hash: a counter store never holds a credential. */
export const hashed = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

/** The key an account's sign-in counts are kept under (its e-mail as typed at sign-in, trimmed and lower-cased). */
export const signinAccountKey = (email: string) => hashed(email.trim().toLowerCase());

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
export const signinRefusal = (ms: number) => `Too many sign-in attempts. Try again in ${plural(Math.max(1, Math.ceil(ms / 60_000)), 'minute')}.`;
export const linkRefusal = (ms: number) => `Too many requests. Try again in ${plural(Math.max(1, Math.ceil(ms / 1000)), 'second')}.`;

/**
 * Takes one point: how long until the next is allowed when over the limit, else undefined.
 * A failing store (Redis down and no insurance) lets the call through and logs: refusing
 * every sign-in because a counter is down would be worse.
 */
export async function overLimit(log: Logger, limiter: RateLimiterAbstract, key: string): Promise<number | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (res) {
    if (res instanceof RateLimiterRes) return res.msBeforeNext;
    log.warn({ err: res }, 'rate limiter unavailable; call let through');
    return undefined;
  }
}

/**
 * What one link call is counted under, both hashed (a counter store never holds a token):
 * the link × the client key, so that one holder of a shared link (a forwarded tracking link)
 * cannot use up the others' budget; and, for a public caller, the client key on its own,
 * so that one client cannot spread a flood over many links. Staff are counted per link only.
 */
export interface LinkCounter { link: string; client?: string }

export const linkCounter = (name: string, client: string, opts: { publicCaller: boolean }): LinkCounter => ({
  link: hashed(`${name}|${client}`),
  client: opts.publicCaller ? hashed(`client:${client}`) : undefined,
});

/** Takes one point from a client key's count of calls with links never issued: the refusal's wait when over, else undefined. */
export const overLinkFailureLimit = (limits: RateLimits, log: Logger, client: string) => overLimit(log, limits.linkFailures, hashed(`failures:${client}`));

/** Takes one point from each count: the refusal's wait when over a limit, else undefined. */
export async function overLinkLimit(limits: RateLimits, log: Logger, counter: LinkCounter): Promise<number | undefined> {
  if (counter.client) {
    const ms = await overLimit(log, limits.linkClient, counter.client);
    if (ms !== undefined) return ms;
  }
  return overLimit(log, limits.link, counter.link);
}

/**
 * The link counts for a call that is not HTTP (a driver socket's position): the refusal's
 * text when over a limit, otherwise undefined. A socket counts under the same keys as its
 * link's REST calls from the same client, so switching transport gains nothing.
 */
export async function linkCallRefusal(limits: RateLimits, log: Logger, counter: LinkCounter): Promise<string | undefined> {
  const ms = await overLinkLimit(limits, log, counter);
  return ms === undefined ? undefined : linkRefusal(ms);
}
