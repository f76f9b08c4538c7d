import type { Knex } from 'knex';

// Idempotency-Key claims and the answers they replay (realtime-server/http/middleware/idempotency.ts).
// One row per (signed-in user, key); `owner` is the server process holding a running claim.
export async function up(knex: Knex) {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('key', 200).notNullable();
    t.string('request_hash', 64).notNullable(); // sha256 of method, path and canonical JSON body
    t.string('status', 16).notNullable(); // running, done
    t.integer('response_status');
    t.text('response_body'); // JSON
    t.string('owner', 36).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.unique(['user_id', 'key']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('idempotency_keys');
}
