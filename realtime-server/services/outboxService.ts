import { outboxRepository } from '../../db/repositories/outboxRepository';
import { CASE_PAGE_DEFAULT, HISTORY_COUNT_CAP, type OutboxPageResponse, type OutboxQuery } from '../contract';
import { presentOutbox } from '../presenters/presentOutbox';
import type { OutboxRow } from '../../db/repositories/types';
import type { ServiceContext } from './context';
import { keysetPage } from './keysetCursor';

/** The mail queue as the admin's outbox page reads it: one page at a time, newest first. */
export const outboxService = {
  async page(ctx: ServiceContext, q: OutboxQuery): Promise<OutboxPageResponse> {
    const page = await keysetPage<OutboxRow>(outboxRepository.listQuery(ctx.db, q.status), {
      list: 'outbox',
      timeColumn: 'outbox.created_at',
      idColumn: 'outbox.id',
      idType: 'number',
      order: 'desc',
      limit: q.limit ?? CASE_PAGE_DEFAULT,
      cursor: q.cursor,
      // PostgreSQL answers `increments` ids as numbers, SQLite too; Number() keeps the cursor's id a number either way.
      keyOf: (m) => [m.created_at, Number(m.id)],
    });
    const counted = await outboxRepository.countUpTo(ctx.db, HISTORY_COUNT_CAP, q.status);
    return {
      messages: page.rows.map(presentOutbox),
      next_cursor: page.next_cursor,
      prev_cursor: page.prev_cursor,
      total: Math.min(counted, HISTORY_COUNT_CAP),
      total_exact: counted <= HISTORY_COUNT_CAP,
    };
  },
};
