import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('outbox', (t) => {
    t.increments('id').primary();
    t.string('kind', 32).notNullable(); // share-location, tracking-patient, tracking-driver
    t.string('to_address', 254).notNullable();
    t.string('subject', 300).notNullable();
    t.text('body_text').notNullable();
    t.text('links').notNullable(); // JSON array of the links the message carries
    t.string('status', 16).notNullable().defaultTo('queued'); // queued, sending, sent, failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at', 30).notNullable();
    t.text('last_error');
    t.string('case_id', 36);
    t.string('created_at', 30).notNullable();
    t.string('sent_at', 30);
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('outbox');
}
