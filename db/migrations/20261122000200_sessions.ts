import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('sessions', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the bearer token; the token itself is never stored
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('revoked_at', 30);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('sessions');
}
