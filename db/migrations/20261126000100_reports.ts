import type { Knex } from 'knex';

/**
 * Reports (issue 17): a period's calls are found by when they came in, and a case may be
 * demo history (SEED=demo's generated past calls), so that it is never mistaken for a real one.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.boolean('demo').notNullable().defaultTo(false);
    t.index(['call_received_at'], 'cases_call_received_at');
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.dropIndex(['call_received_at'], 'cases_call_received_at');
    t.dropColumn('demo');
  });
}
