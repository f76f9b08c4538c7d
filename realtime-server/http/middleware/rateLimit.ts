import type { Context } from 'koa';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { ServiceContext } from '../../services/context';
import { DomainError } from '../../services/errors';
import { CODE_MAX_TRIES } from '../../services/authService';
import { requestClientKey } from '../../edge/clientIp';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import {
  type RateLimits, SIGNIN_MAX_WAIT_SECONDS, hashed, linkCounter, signinAccountKey, linkRefusal, overLimit, overLinkFailureLimit, overLinkLimit, signinRefusal,
} from '../../edge/rateLimits';

/** The Koa side of the rate limits (edge/rateLimits.ts): sign-in attempts and link calls answered 429 with Retry-After. */

/** 429 with `Retry-After` (whole seconds). The error middleware keeps the header. */
function refuse(ctx: Context, msBeforeNext: number, message: (ms: number) => string): never {
  ctx.set('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
  throw new DomainError(429, message(msBeforeNext));
}

/** Takes one point; over the limit answers 429. */
async function take(ctx: Context, svc: ServiceContext, limiter: RateLimiterAbstract, key: string, message: (ms: number) => string) {
  const ms = await overLimit(svc.log, limiter, key);
  if (ms !== undefined) refuse(ctx, ms, message);
}

const quietly = (p: Promise<unknown>) => p.then(() => {}, () => {});

/** A counter store call that may fail (Redis down, no insurance): logged, and then `fallback`. */
async function tolerant<T>(svc: ServiceContext, call: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await call();
  } catch (err) {
    svc.log.warn({ err }, 'rate limiter unavailable; call let through');
    return fallback;
  }
}

/** The wait the `n`-th counted attempt of an account × client key opens: `seconds` at `after`, doubling, capped. */
export const backoffSeconds = (n: number, backoff: { after: number; seconds: number }) =>
  Math.min(SIGNIN_MAX_WAIT_SECONDS, backoff.seconds * 2 ** Math.max(0, n - backoff.after));

/**
 * Counts this attempt for an account × client key: an attempt stays counted until it turns
 * out not to be a failure, so attempts running at once count too. Under `after` counted
 * attempts it goes ahead. From then on an attempt goes ahead only by opening the pair's wait
 * (1, 2, 4 … × `seconds`, by the count; one attempt opens it, however many arrive at once),
 * and within a wait it is refused. Answers whether this attempt opened a wait, or how long
 * the caller must still wait.
 */
async function reservePair(svc: ServiceContext, limits: RateLimits, key: string, step: SigninStep): Promise<{ opened: boolean } | { waitMs: number }> {
  const backoff = step === 'code' ? codeBackoff(svc.config.signinBackoff) : svc.config.signinBackoff;
  const counted = await tolerant(svc, () => limits.signinPair.penalty(key), undefined);
  if (!counted || counted.consumedPoints < backoff.after) return { opened: false };
  const wait = await tolerant(svc, () => limits.signinPairWait.penalty(key, 1, { customDuration: backoffSeconds(counted.consumedPoints, backoff) }), undefined);
  if (!wait || wait.consumedPoints === 1) return { opened: Boolean(wait) };
  await quietly(limits.signinPair.reward(key));
  return { waitMs: wait.msBeforeNext };
}

/**
 * The code step's waits begin after one challenge's worth of tries more than the fields' (a
 * challenge already dies at its 5th wrong code): an owner who mistyped a whole challenge can
 * still enter the next code at once; guessing across challenges meets the doubling waits.
 */
const codeBackoff = (b: { after: number; seconds: number }) => ({ ...b, after: b.after + CODE_MAX_TRIES });

/**
 * The step an attempt is counted for: the three fields, or the mailed code. They wait apart, so
 * that mistyped codes (already 5 tries a challenge) do not stop the owner from asking for a new
 * one, while guessing either step still meets its own backoff.
 */
export type SigninStep = 'fields' | 'code';

export interface SigninAttempt {
  /**
   * SIGNIN_LIMIT_ACCOUNT failures on this account in the last 15 minutes, from any clients:
   * a sign-in with the right fields must also pass a code mailed to the account.
   */
  underAttack: boolean;
  /**
   * Takes one code mail from this client's share on the account (SIGNIN_CODE_MAILS_PER_CLIENT) and
   * the account's (SIGNIN_LIMIT_ACCOUNT), in 15 minutes: true when a mail may go. When either is
   * spent: false, or with `mustMail` (the account has no live code to enter instead) 429.
   */
  takeCodeMail: (mustMail: boolean) => Promise<boolean>;
  /**
   * Runs the check of the credentials. A refusal (401) is a failure: it stays counted for the
   * client key, for the account × client key, and for the account. Anything else was not
   * the caller's failure; a completed sign-in (a session issued) also clears the account ×
   * client key, so its next failure is free again.
   */
  run<T>(work: () => Promise<T>, completed: (result: T) => boolean): Promise<T>;
}

/**
 * Counts a sign-in attempt (POST /api/auth/signin and /verify). Before any credential is
 * looked at: over SIGNIN_LIMIT_IP failures of this client key, or while this client key must
 * wait on this account, 429 with Retry-After. Failures of other clients on the account never
 * refuse this one; they only make the account `underAttack`.
 */
export async function signinAttempt(ctx: Context, svc: ServiceContext, email: string | undefined, step: SigninStep = 'fields'): Promise<SigninAttempt> {
  const limits = svc.rateLimits;
  const client = requestClientKey(ctx, svc.rateLimits.proxies);
  const account = email ? signinAccountKey(email) : undefined;
  const pairOf = (s: SigninStep) => (account ? hashed(`${account}\n${client}\n${s}`) : undefined);
  const pair = pairOf(step);
  await take(ctx, svc, limits.signinClient, client, signinRefusal);
  let opened = false;
  if (pair) {
    const reserved = await reservePair(svc, limits, pair, step);
    if ('waitMs' in reserved) {
      await quietly(limits.signinClient.reward(client));
      refuse(ctx, reserved.waitMs, signinRefusal);
    }
    opened = reserved.opened;
  }
  const failures = account ? await tolerant(svc, () => limits.signinAccountFailures.get(account), null) : null;
  /** Not the caller's failure: nothing of this attempt stays counted. */
  const release = async () => {
    await quietly(limits.signinClient.reward(client));
    if (pair) {
      await quietly(limits.signinPair.reward(pair));
      if (opened) await quietly(limits.signinPairWait.delete(pair));
    }
  };
  return {
    underAttack: (failures?.consumedPoints ?? 0) >= svc.config.limits.signinPerAccount,
    takeCodeMail: async (mustMail) => {
      if (!account) return true;
      const mine = hashed(`${account}\n${client}\nmail`);
      let ms = await overLimit(svc.log, limits.signinCodeMailsClient, mine);
      if (ms === undefined) {
        ms = await overLimit(svc.log, limits.signinCodeMails, account);
        if (ms !== undefined) await quietly(limits.signinCodeMailsClient.reward(mine));
      }
      if (ms === undefined) return true;
      if (mustMail) refuse(ctx, ms, signinRefusal);
      return false;
    },
    async run<T>(work: () => Promise<T>, completed: (result: T) => boolean): Promise<T> {
      let result: T;
      try {
        result = await work();
      } catch (err) {
        if (err instanceof DomainError && err.status === 401) {
          if (account) await quietly(limits.signinAccountFailures.penalty(account));
        } else {
          await release();
        }
        throw err;
      }
      await release();
      if (account && completed(result)) {
        // Both factors proven: this client starts over on either step of this account.
        for (const k of [pairOf('fields')!, pairOf('code')!]) await Promise.all([quietly(limits.signinPair.delete(k)), quietly(limits.signinPairWait.delete(k))]);
      }
      return result;
    },
  };
}

/** What a link call is counted under (see linkRateLimit). */
export interface LinkKey {
  /** The link's name, e.g. `track:<token>`: counted per link × client key. */
  name: string;
  /**
   * Whether the link was ever issued (a token that exists, a case with this location token, a known
   * device id), looked up before counting. A public call with a link never issued counts only
   * under the client key's failures, never under a right link's counts.
   */
  issued: () => Promise<boolean>;
}

/**
 * Limits calls per link (LINK_LIMIT_PER_MIN per link and client) and, for callers without a
 * session, per client (LINK_LIMIT_PER_CLIENT); a public call with a link never issued counts apart
 * (LINK_LIMIT_PER_MIN a minute per client key) so that wrong links on a shared address (a
 * carrier's NAT) cannot lock out the patient or crew with the right one. `keyOf` names the
 * link, or nothing to let the call through uncounted.
 */
export const linkRateLimit = (svc: ServiceContext, keyOf: (ctx: RouterContext) => LinkKey | undefined): RouterMiddleware => async (ctx, next) => {
  const link = keyOf(ctx);
  if (link) {
    const client = requestClientKey(ctx, svc.rateLimits.proxies);
    const publicCaller = !(ctx.state as { principal?: unknown }).principal;
    const ms = publicCaller && !(await link.issued())
      ? await overLinkFailureLimit(svc.rateLimits, svc.log, client)
      : await overLinkLimit(svc.rateLimits, svc.log, linkCounter(link.name, client, { publicCaller }));
    if (ms !== undefined) refuse(ctx, ms, linkRefusal);
  }
  await next();
};
