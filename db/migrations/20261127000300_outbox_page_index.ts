import type { Knex } from 'knex';

/**
 * The admin's outbox is read a page at a time, newest first, by keyset on (created_at, id)
 * (issue 24): alone, or within one status. An index on each of those orders lets the database
 * hand a page over as it walks the index, from the cursor on, instead of sorting every message
 * ever queued for each page. The worker's (status, next_attempt_at) index stays as it is.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('outbox', (t) => {
    t.index(['created_at', 'id'], 'outbox_created_at_id');
    t.index(['status', 'created_at', 'id'], 'outbox_status_created_at_id');
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropIndex(['created_at', 'id'], 'outbox_created_at_id');
    t.dropIndex(['status', 'created_at', 'id'], 'outbox_status_created_at_id');
  });
}
