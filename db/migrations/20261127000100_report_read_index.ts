import type { Knex } from 'knex';

/**
 * The response-times report reads a period's calls in (call time, case) order with their
 * priority: an index on exactly those lets SQLite hand the rows over in that order as it finds
 * them, with no sort of the whole period before the first row (2 to 3 s for a busy year, during
 * which better-sqlite3 holds the event loop) and without reading the wide case rows. It starts
 * with call_received_at, so it serves every range on the call time the single-column index did.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.index(['call_received_at', 'id', 'priority'], 'cases_call_received_at_id');
  });
  await knex.schema.alterTable('cases', (t) => {
    t.dropIndex(['call_received_at'], 'cases_call_received_at');
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.index(['call_received_at'], 'cases_call_received_at');
  });
  await knex.schema.alterTable('cases', (t) => {
    t.dropIndex(['call_received_at', 'id', 'priority'], 'cases_call_received_at_id');
  });
}
