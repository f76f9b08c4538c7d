import type { Knex } from 'knex';

/**
 * A claimed message is a lease: the node that claimed it (`claimed_by`) sends it until
 * `claimed_until`; after that another node may take it over (a crashed node's message is
 * sent by the others). With several nodes on PostgreSQL, claims use FOR UPDATE SKIP LOCKED.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('outbox', (t) => {
    t.string('claimed_by', 100);
    t.string('claimed_until', 30);
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('claimed_by');
    t.dropColumn('claimed_until');
  });
}
