import type { UserWriteInput } from '../contract';
import { sessionRepository } from '../../db/repositories/sessionRepository';
import { userRepository } from '../../db/repositories/userRepository';
import { userPolicy } from '../policies/userPolicy';
import { presentUser } from '../presenters/presentUser';
import { conflict, forbidden, notFound } from './errors';
import { type ServiceContext, inTransaction } from './context';

const isUniqueViolation = (err: unknown) => /unique|duplicate key/i.test(String((err as Error)?.message));

/** An account the staff-management routes may change (userPolicy.isManaged). */
async function findOperator(trx: Parameters<typeof userRepository.findById>[0], id: number) {
  const user = await userRepository.findById(trx, id);
  if (!user) throw notFound('Operator not found');
  if (!userPolicy.isManaged(user)) throw forbidden('Only operator accounts can be managed here');
  return user;
}

export const userService = {
  /** Every operator account (admins are not listed). */
  listOperators: async (ctx: ServiceContext) => (await userRepository.listByRole(ctx.db, 'operator')).map(presentUser),

  /** The id of the staff account (any role) with this e-mail. */
  async idByEmail(ctx: ServiceContext, address: string) {
    const user = await userRepository.findByEmail(ctx.db, address);
    if (!user) throw notFound('No staff account with this email');
    return user.id;
  },

  create: (ctx: ServiceContext, input: UserWriteInput) =>
    inTransaction(ctx, async (trx, record) => {
      if (await userRepository.findByEmail(trx, input.email)) throw conflict('An account with this email already exists');
      const id = await userRepository.insert(trx, input).catch((err) => {
        throw isUniqueViolation(err) ? conflict('An account with this email already exists') : err;
      });
      const user = presentUser((await userRepository.findById(trx, id))!);
      record({ type: 'user.created', user });
      return user;
    }),

  update: (ctx: ServiceContext, id: number, input: UserWriteInput) =>
    inTransaction(ctx, async (trx, record) => {
      await findOperator(trx, id);
      const other = await userRepository.findByEmail(trx, input.email);
      if (other && other.id !== id) throw conflict('An account with this email already exists');
      await userRepository.update(trx, id, input);
      // Deactivating ends every session of the account and disconnects its sockets (after the commit).
      if (input.active === false) record({ type: 'sessions.revoked', sessionIds: await sessionRepository.revokeAllForUser(trx, id) });
      const user = presentUser((await userRepository.findById(trx, id))!);
      record({ type: 'user.updated', user });
      return user;
    }),

  /**
   * Ends every live session of a staff member of any role (a lost phone, a shared desk): their
   * REST calls are refused and their sockets disconnected once this commits. The account
   * stays as it is; its owner may sign in again. Answers how many sessions ended.
   */
  signOutEverywhere: (ctx: ServiceContext, id: number, actor: { id: number }) =>
    inTransaction(ctx, async (trx, record) => {
      if (!(await userRepository.findById(trx, id))) throw notFound('Operator not found');
      const sessionIds = await sessionRepository.revokeLiveForUser(trx, id);
      if (sessionIds.length) record({ type: 'sessions.revoked', sessionIds });
      ctx.log.info({ userId: id, by: actor.id, sessions: sessionIds.length }, 'signed out everywhere by an admin');
      return sessionIds.length;
    }),

  /** Deleting an operator revokes their sessions and disconnects their sockets; their cases stay. */
  remove: (ctx: ServiceContext, id: number) =>
    inTransaction(ctx, async (trx, record) => {
      await findOperator(trx, id);
      const sessionIds = await sessionRepository.revokeAllForUser(trx, id);
      await userRepository.delete(trx, id);
      record({ type: 'sessions.revoked', sessionIds });
      record({ type: 'user.deleted', id });
    }),
};
