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

/** A code is stored as its hash with a salt of its own (no one table of 10^6 hashes opens every code). */
const codeHash = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');

/**
 * A code still worth binding a new challenge to has at least half its life left; one closer to its
 * end is replaced by a new mail when the budgets allow (else it is still bound, rather than refuse).
 */
const REUSE_MIN_MS = (CODE_VALID_MINUTES * 60_000) / 2;

async function openSession(ctx: ServiceContext, db: Db, user: UserRow): Promise<SignInResponse> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ctx.config.sessionTtlMs).toISOString();
  await sessionRepository.insert(db, user.id, hashToken(token), expiresAt);
  return { token, expiresAt, user: { id: user.id, email: user.email, role: user.role, username: user.name } };
}

/** A new challenge for a code: the answer the browser must send back with that code. */
async function challengeFor(db: Db, codeId: number): Promise<SignInCodeRequired> {
  const challenge = newToken();
  await signinCodeRepository.insertChallenge(db, hashToken(challenge), codeId);
  return { codeRequired: true, challenge };
}

/** Mails a new 6-digit code and answers a challenge for it. */
const mailNewCode = (ctx: ServiceContext, user: UserRow): Promise<SignInCodeRequired> =>
  inTransaction(ctx, async (trx, record) => {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = newToken();
    const codeId = await signinCodeRepository.insertCode(trx, { userId: user.id, salt, codeHash: codeHash(salt, code), validMs: CODE_VALID_MINUTES * 60_000 });
    await outboxRepository.insert(trx, mailTemplates.signinCode(user, code, CODE_VALID_MINUTES));
    record({ type: 'mail.queued' });
    return challengeFor(trx, codeId);
  });

/**
 * The code step: while the account has a live code (mailed, unused, tries left, with half its
 * life left), the sign-in gets a challenge for THAT code: nothing is mailed and no budget is
 * spent, so whoever asks (a stranger with the three fields) cannot spend the owner's way in, and
 * the owner types the code already in the mailbox. Otherwise a new code is mailed if this client's
 * share and the account's allow it; when they do not, a live code is still bound, and only with
 * none left is the sign-in refused (429).
 */
async function codeChallenge(ctx: ServiceContext, user: UserRow, takeMail: SignInGuard['takeCodeMail']): Promise<SignInCodeRequired> {
  const live = await signinCodeRepository.liveFor(ctx.db, user.id, CODE_MAX_TRIES);
  if (live && Date.parse(live.expires_at) - Date.now() >= REUSE_MIN_MS) return challengeFor(ctx.db, live.id);
  if (!takeMail || await takeMail(!live)) return mailNewCode(ctx, user);
  return challengeFor(ctx.db, live!.id);
}

/** What the caller knows about the attempt beyond its fields (see http/middleware/rateLimit.ts). */
export interface SignInGuard {
  /** Many clients failed on this account lately: the right fields alone are not enough. */
  underAttack?: boolean;
  /**
   * Takes one code mail from this client's share on the account and the account's own: true when
   * a mail may go; false when either is spent, or, with `mustMail` (no live code to fall back on), 429.
   */
  takeCodeMail?: (mustMail: boolean) => Promise<boolean>;
}

export const authService = {
  /**
   * All three of e-mail, name and phone must match one active staff account. Then a session
   * is opened, or the code step answers a challenge (codeChallenge): always with
   * SIGNIN_CODE=email, and for an account under attack when mail can reach its owner
   * (SMTP_URL). Without SMTP_URL a code would only wait in the outbox, which is no second
   * factor and would lock the owner out: such a sign-in opens a session and is logged.
   */
  async signIn(ctx: ServiceContext, input: SignInInput, guard: SignInGuard = {}): Promise<SignInResult> {
    const digits = input.phone.replace(/\D/g, '');
    const user = await userRepository.findForSignIn(ctx.db, input.email, input.username.trim().toLowerCase(), digits);
    if (!user) throw unauthorized(NO_ACCOUNT);
    if (ctx.config.signinCode === 'email' || (guard.underAttack && ctx.config.smtpUrl)) {
      if (ctx.config.signinCode !== 'email') ctx.log.info({ userId: user.id }, 'sign-in for an account under attack (many failed sign-ins from several clients): a code is mailed');
      return codeChallenge(ctx, user, guard.takeCodeMail);
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
   * counted on the code (committed even when it fails), whichever of its challenges sends it;
   * after CODE_MAX_TRIES the code and all its challenges are dead.
   */
  async verifyCode(ctx: ServiceContext, input: SignInVerifyInput): Promise<SignInResponse> {
    const outcome = await inTransaction(ctx, async (trx): Promise<SignInResponse | { error: string }> => {
      const row = await signinCodeRepository.findByChallenge(trx, hashToken(input.challenge));
      if (!row || row.used_at) return { error: CODE_ERRORS.invalid };
      if (row.attempts >= CODE_MAX_TRIES) return { error: CODE_ERRORS.tooMany };
      if (row.expires_at <= new Date().toISOString()) return { error: CODE_ERRORS.expired };
      if (!(await signinCodeRepository.countTry(trx, row.id, CODE_MAX_TRIES))) return { error: CODE_ERRORS.tooMany };
      const tries = row.attempts + 1;
      if (!sameHash(row.code_hash, codeHash(row.code_salt, input.code))) {
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
