import type { SigninLimitsDto } from '../contract';
import { userRepository } from '../../db/repositories/userRepository';
import { signinAccountKey } from '../edge/rateLimits';
import type { ServiceContext } from './context';
import { DomainError, notFound } from './errors';

/**
 * An admin's view of an account's own sign-in counts (edge/rateLimits.ts), the ones any client
 * adds to: code mails and failures. Kept where the limiters keep them (Redis across nodes).
 * Each client's own share on the account is left alone: it refuses no other client.
 */
async function counts(ctx: ServiceContext, email: string): Promise<SigninLimitsDto> {
  const key = signinAccountKey(email);
  const { signinCodeMails, signinAccountFailures } = ctx.rateLimits;
  let mails, failures;
  try {
    [mails, failures] = await Promise.all([signinCodeMails.get(key), signinAccountFailures.get(key)]);
  } catch (err) {
    ctx.log.warn({ err }, 'sign-in counters unavailable');
    throw new DomainError(503, 'The sign-in counters are unavailable; try again shortly');
  }
  const limit = ctx.config.limits.signinPerAccount;
  const codeMails = Math.min(mails?.consumedPoints ?? 0, limit);
  return {
    codeMails, codeMailLimit: limit,
    failures: failures?.consumedPoints ?? 0, failureLimit: limit,
    limitedUntil: mails && codeMails >= limit ? new Date(Date.now() + mails.msBeforeNext).toISOString() : null,
  };
}

async function accountEmail(ctx: ServiceContext, id: number) {
  const user = await userRepository.findById(ctx.db, id);
  if (!user) throw notFound('Operator not found');
  return user.email;
}

export const signinLimitService = {
  read: async (ctx: ServiceContext, id: number) => counts(ctx, await accountEmail(ctx, id)),

  /** Clears the account's counts, so its owner can have a code mailed at once; logged with the admin. */
  async clear(ctx: ServiceContext, id: number, actor: { id: number }): Promise<SigninLimitsDto> {
    const email = await accountEmail(ctx, id);
    const key = signinAccountKey(email);
    try {
      await Promise.all([ctx.rateLimits.signinCodeMails.delete(key), ctx.rateLimits.signinAccountFailures.delete(key)]);
    } catch (err) {
      ctx.log.warn({ err }, 'sign-in counters unavailable');
      throw new DomainError(503, 'The sign-in counters are unavailable; try again shortly');
    }
    ctx.log.info({ userId: id, by: actor.id }, 'sign-in limits cleared by an admin');
    return counts(ctx, email);
  },
};
