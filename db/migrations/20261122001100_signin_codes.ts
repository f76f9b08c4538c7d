import type { Knex } from 'knex';

// The optional second sign-in step (SIGNIN_CODE=email): a challenge handed to the browser
// and a 6-digit code mailed to the account. Both are stored only as SHA-256 hashes (the
// code's hash is keyed by the challenge, so a copy of this table cannot be brute-forced
// without the challenge the browser holds). Valid for 10 minutes, once, with 5 tries.
export async function up(knex: Knex) {
  await knex.schema.createTable('signin_codes', (t) => {
    t.increments('id').primary();
    t.string('challenge_hash', 64).notNullable().unique();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('code_hash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('used_at', 30);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('signin_codes');
}
