import type { Knex } from 'knex';

// Tracking links: a viewer token may watch one ambulance, a driver token may also send
// its positions. Both are valid only while their case is active and holds the ambulance.
export async function up(knex: Knex) {
  await knex.schema.createTable('track_tokens', (t) => {
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('kind', 16).notNullable(); // viewer, driver
    t.string('case_id', 36).notNullable().references('id').inTable('cases').onDelete('CASCADE');
    t.integer('ambulance_id').notNullable().references('id').inTable('ambulances').onDelete('CASCADE');
    t.string('created_at', 30).notNullable();
    t.string('revoked_at', 30);
    t.index(['case_id']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('track_tokens');
}
