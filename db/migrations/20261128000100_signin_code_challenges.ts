import type { Knex } from 'knex';

/**
 * Issue 26: a stranger who knew a staff member's three fields could spend the account's code
 * mails and lock its owner out. A mailed code is now the account's (one live code at a time) and
 * each sign-in's challenge points at it: a sign-in while a code is live takes that code, mails
 * nothing and spends no budget, so the owner can type the code already in the mailbox. Tries
 * count on the code (5 in all, whichever challenges send them), so more challenges buy no guesses.
 * The code's hash is salted per code; a copy of the table with a live code (10 minutes) is worth
 * a guess only together with the three fields, as a challenge from them was before.
 * Codes are short-lived: the old rows are dropped (a sign-in in flight at the upgrade starts again).
 */
export async function up(knex: Knex) {
  await knex.schema.dropTable('signin_codes');
  await knex.schema.createTable('signin_codes', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('code_salt', 64).notNullable();
    t.string('code_hash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('created_at', 30).notNullable();
    t.string('expires_at', 30).notNullable();
    t.string('used_at', 30);
    t.index(['user_id']);
  });
  await knex.schema.createTable('signin_challenges', (t) => {
    t.increments('id').primary();
    t.string('challenge_hash', 64).notNullable().unique();
    t.integer('code_id').notNullable().references('id').inTable('signin_codes').onDelete('CASCADE');
    t.string('created_at', 30).notNullable();
    t.index(['code_id']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('signin_challenges');
  await knex.schema.dropTable('signin_codes');
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
