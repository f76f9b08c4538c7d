import type { SignInInput, SignInResponse } from '../contract';
import { sessionRepository } from '../../db/repositories/sessionRepository';
import { userRepository } from '../../db/repositories/userRepository';
import type { SessionRow, UserRow } from '../../db/repositories/types';
import { unauthorized } from './errors';
import { type ServiceContext, inTransaction } from './context';
import { hashToken, newToken } from './tokens';

export interface Principal { session: SessionRow; user: UserRow }

export const authService = {
  /** All three of e-mail, name and phone must match one active staff account. */
  async signIn(ctx: ServiceContext, input: SignInInput): Promise<SignInResponse> {
    const digits = input.phone.replace(/\D/g, '');
    const user = await userRepository.findForSignIn(ctx.db, input.email, input.username.trim().toLowerCase(), digits);
    if (!user) throw unauthorized('No staff account matches this email, username and phone number');
    const token = newToken();
    const expiresAt = new Date(Date.now() + ctx.config.sessionTtlMs).toISOString();
    await sessionRepository.insert(ctx.db, user.id, hashToken(token), expiresAt);
    return { token, expiresAt, user: { id: user.id, email: user.email, role: user.role, username: user.name } };
  },

  /** The principal behind a bearer token, or undefined when the token is unknown, expired or revoked. */
  authenticate: (ctx: ServiceContext, token: string): Promise<Principal | undefined> =>
    sessionRepository.findLive(ctx.db, hashToken(token)),

  signOut: (ctx: ServiceContext, sessionId: number) =>
    inTransaction(ctx, async (trx, record) => {
      await sessionRepository.revoke(trx, sessionId);
      record({ type: 'sessions.revoked', sessionIds: [sessionId] });
    }),
};
