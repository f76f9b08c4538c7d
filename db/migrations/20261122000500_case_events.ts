import type { Knex } from 'knex';

// The case timeline. No foreign key on case_id: the audit trail outlives a deleted case.
export async function up(knex: Knex) {
  await knex.schema.createTable('case_events', (t) => {
    t.increments('id').primary();
    t.string('case_id', 36).notNullable();
    t.string('action', 32).notNullable(); // created, updated, assigned, released, location, tracking, deleted
    t.string('actor_type', 16).notNullable(); // user, patient, driver, system
    t.integer('actor_id');
    t.text('before'); // JSON of the changed fields before, or null
    t.text('after'); // JSON of the changed fields after, or null
    t.string('created_at', 30).notNullable();
    t.index(['case_id', 'id']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('case_events');
}
