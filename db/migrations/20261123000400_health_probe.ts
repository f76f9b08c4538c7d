import type { Knex } from 'knex';

/**
 * The health check's write probe (realtime-server/services/storageHealth.ts): while the
 * database refuses writes, each node writes one row here to learn when it takes them again.
 * At most one row per node stays; the table is never read by the application.
 */
export async function up(knex: Knex) {
  await knex.schema.createTable('health_probe', (t) => {
    t.increments('id').primary();
    t.string('node', 100).notNullable();
    t.string('written_at', 30).notNullable();
    t.text('payload').notNullable();
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('health_probe');
}
