import { createHash, randomInt } from 'node:crypto';
import type { SignInCodeRequired, SignInInput, SignInResponse, SignInResult, SignInVerifyInput } from '../contract';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { sessionRepository } from '../../db/repositories/sessionRepository';
import { signinCodeRepository } from '../../db/repositories/signinCodeRepository';
import { userRepository } from '../../db/repositories/userRepository';
import type { Db, SessionRow, UserRow } from '../../db/repositories/types';
import { unauthorized } from './errors';
import { type ServiceContext, inTransaction } from './context';
import { mailTemplates } from './mailTemplates';
import { hashToken, newToken, sameHash } from './tokens';

export interface Principal { session: SessionRow; user: UserRow }

export const NO_ACCOUNT = 'No staff account matches this email, username and phone number';
/** The second step (SIGNIN_CODE=email). */
export const CODE_VALID_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
export const CODE_ERRORS = {
  tooMany: 'Too many wrong codes; sign in again',
  expired: 'This code has expired; sign in again',
  invalid: 'This code is no longer valid; sign in again',
  wrong: (left: number) => `Wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left`,
} as const;

/** The code's hash is keyed by the challenge, which only the browser holds in clear. */
const codeHash = (challenge: string, code: string) => createHash('sha256').update(`${challenge}:${code}`).digest('hex');

async function openSession(ctx: ServiceContext, db: Db, user: UserRow): Promise<SignInResponse> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ctx.config.sessionTtlMs).toISOString();
  await sessionRepository.insert(db, user.id, hashToken(token), expiresAt);
  return { token, expiresAt, user: { id: user.id, email: user.email, role: user.role, username: user.name } };
}

/** Mails a 6-digit code and answers the challenge that must come back with it. */
const startCodeChallenge = (ctx: ServiceContext, user: UserRow): Promise<SignInCodeRequired> =>
  inTransaction(ctx, async (trx, record) => {
    const challenge = newToken();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await signinCodeRepository.insert(trx, {
      challengeHash: hashToken(challenge),
      userId: user.id,
      codeHash: codeHash(challenge, code),
      validMs: CODE_VALID_MINUTES * 60_000,
    });
    await outboxRepository.insert(trx, mailTemplates.signinCode(user, code, CODE_VALID_MINUTES));
    record({ type: 'mail.queued' });
    return { codeRequired: true, challenge };
  });

/** What the caller knows about the attempt beyond its fields (see http/middleware/rateLimit.ts). */
export interface SignInGuard {
  /** Many clients failed on this account lately: the right fields alone are not enough. */
  underAttack?: boolean;
  /** Called before a code is mailed; throws when the account had its share of code mails. */
  beforeCodeMail?: () => Promise<void>;
}

export const authService = {
  /**
   * All three of e-mail, name and phone must match one active staff account. Then a session
   * is opened, or a code is mailed and the answer names its challenge: always with
   * SIGNIN_CODE=email, and for an account under attack when mail can reach its owner
   * (SMTP_URL). Without SMTP_URL a code would only wait in the outbox, which is no second
   * factor and would lock the owner out: such a sign-in opens a session and is logged.
   */
  async signIn(ctx: ServiceContext, input: SignInInput, guard: SignInGuard = {}): Promise<SignInResult> {
    const digits = input.phone.replace(/\D/g, '');
    const user = await userRepository.findForSignIn(ctx.db, input.email, input.username.trim().toLowerCase(), digits);
    if (!user) throw unauthorized(NO_ACCOUNT);
    if (ctx.config.signinCode === 'email' || (guard.underAttack && ctx.config.smtpUrl)) {
      await guard.beforeCodeMail?.();
      if (ctx.config.signinCode !== 'email') ctx.log.info({ userId: user.id }, 'sign-in for an account under attack (many failed sign-ins from several clients): a code is mailed');
      return startCodeChallenge(ctx, user);
    }
    if (guard.underAttack) ctx.log.warn({ userId: user.id }, 'sign-in for an account under attack (many failed sign-ins from several clients) without a second step: set SMTP_URL so that such sign-ins need a mailed code');
    return openSession(ctx, ctx.db, user);
  },

  /** The e-mail of the account a challenge belongs to (for counting attempts), if it exists. */
  async challengeAccount(ctx: ServiceContext, challenge: string): Promise<string | undefined> {
    const row = await signinCodeRepository.findByChallenge(ctx.db, hashToken(challenge));
    return row ? (await userRepository.findById(ctx.db, row.user_id))?.email : undefined;
  },

  /**
   * The second step: the mailed code for a live challenge opens the session. Every try is
   * counted (committed even when it fails); after CODE_MAX_TRIES the challenge is dead.
   */
  async verifyCode(ctx: ServiceContext, input: SignInVerifyInput): Promise<SignInResponse> {
    const outcome = await inTransaction(ctx, async (trx): Promise<SignInResponse | { error: string }> => {
      const row = await signinCodeRepository.findByChallenge(trx, hashToken(input.challenge));
      if (!row || row.used_at) return { error: CODE_ERRORS.invalid };
      if (row.attempts >= CODE_MAX_TRIES) return { error: CODE_ERRORS.tooMany };
      if (row.expires_at <= new Date().toISOString()) return { error: CODE_ERRORS.expired };
      if (!(await signinCodeRepository.countTry(trx, row.id, CODE_MAX_TRIES))) return { error: CODE_ERRORS.tooMany };
      const tries = row.attempts + 1;
      if (!sameHash(row.code_hash, codeHash(input.challenge, input.code))) {
        return { error: tries >= CODE_MAX_TRIES ? CODE_ERRORS.tooMany : CODE_ERRORS.wrong(CODE_MAX_TRIES - tries) };
      }
      if (!(await signinCodeRepository.markUsed(trx, row.id))) return { error: CODE_ERRORS.invalid };
      // Deactivated (or deleted) between the two steps: no session.
      const user = await userRepository.findById(trx, row.user_id);
      if (!user || !user.active) return { error: NO_ACCOUNT };
      return openSession(ctx, trx, user);
    });
    if ('error' in outcome) throw unauthorized(outcome.error);
    return outcome;
  },

  /** The principal behind a bearer token, or undefined when the token is unknown, expired or revoked. */
  async authenticate(ctx: ServiceContext, token: string): Promise<Principal | undefined> {
    const hash = hashToken(token);
    const cache = ctx.principals;
    const known = cache.get(hash);
    if (known) return known;
    const stamp = cache.stamp();
    const principal = await sessionRepository.findLive(ctx.db, hash);
    if (principal) cache.set(hash, principal, stamp);
    return principal;
  },

  signOut: (ctx: ServiceContext, sessionId: number) =>
    inTransaction(ctx, async (trx, record) => {
      await sessionRepository.revoke(trx, sessionId);
      record({ type: 'sessions.revoked', sessionIds: [sessionId] });
    }),
};
