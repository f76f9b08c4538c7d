import { outboxRepository } from '../../db/repositories/outboxRepository';
import { presentOutbox } from '../presenters/presentOutbox';
import type { ServiceContext } from './context';

/** The mail queue as the admin's outbox page reads it. */
export const outboxService = {
  list: async (ctx: ServiceContext) => (await outboxRepository.list(ctx.db)).map(presentOutbox),
};
