import type { Knex } from 'knex';

/**
 * When each periodic job (retention, …) last ran, and on which node: with several nodes on
 * one PostgreSQL database a pass runs under an advisory lock, and a node skips its pass when
 * another node finished one less than an interval ago (realtime-server/jobs/jobLock.ts).
 */
export async function up(knex: Knex) {
  await knex.schema.createTable('job_runs', (t) => {
    t.string('name', 64).primary();
    t.string('node', 100).notNullable();
    t.string('started_at', 30).notNullable();
    t.string('finished_at', 30);
    t.integer('runs').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('job_runs');
}
