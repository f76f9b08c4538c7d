import type { Knex } from 'knex';

/**
 * Issue 30: the hospital end of a call (DOMAIN.md §6).
 *
 * - `hospitals`: where units convey patients, with what each can take (`capabilities`, a JSON
 *   list of contract HOSPITAL_CAPABILITIES), its diversion status (who set it and when), and the
 *   SHA-256 of its page's link token (a new link replaces the hash, so the old link dies).
 * - `assignments` gain the destination (eDisposition.01 name kept as text like the plate, .20
 *   reason) and `handover_at` (eTimes.12, the transfer of care).
 * - `prealerts`: ATMIST pre-arrival alerts of an assignment to its destination (eDisposition.24
 *   activation, .25 sent time), acknowledged by the hospital; `content` is the clinical part
 *   (JSON), taken out with the patient's location after RETENTION_DAYS (`redacted_at`).
 */
export async function up(knex: Knex) {
  await knex.schema.createTable('hospitals', (t) => {
    t.increments('id').primary();
    t.string('name', 120).notNullable();
    t.string('address', 200).notNullable().defaultTo('');
    t.double('latitude').notNullable();
    t.double('longitude').notNullable();
    t.text('capabilities').notNullable().defaultTo('[]');
    t.string('status', 12).notNullable().defaultTo('open');
    t.string('status_reason', 200);
    t.string('status_updated_at', 30).notNullable();
    t.string('status_updated_by', 120);
    t.string('link_hash', 64);
    t.string('link_issued_at', 30);
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await knex.schema.alterTable('assignments', (t) => {
    t.string('handover_at', 30);
    t.integer('destination_hospital_id').references('id').inTable('hospitals').onDelete('SET NULL');
    t.string('destination_name', 120);
    t.string('destination_reason', 16);
    t.string('destination_set_at', 30);
  });
  // The hospital page's units: those conveyed to it, read on every page load and poll.
  await knex.raw('create index assignments_by_destination on assignments (destination_hospital_id, dispatched_at) where destination_hospital_id is not null');
  await knex.schema.createTable('prealerts', (t) => {
    t.increments('id').primary();
    t.integer('assignment_id').notNullable().references('id').inTable('assignments').onDelete('CASCADE');
    t.string('case_id', 36).notNullable().references('id').inTable('cases').onDelete('CASCADE');
    t.integer('hospital_id').references('id').inTable('hospitals').onDelete('SET NULL');
    t.string('activation', 16).notNullable();
    t.text('content');
    t.string('sent_at', 30).notNullable();
    t.string('acknowledged_at', 30);
    // When the dispatchers were told to phone the hospital (PREALERT_ACK_AFTER passed unacknowledged).
    t.string('ack_alerted_at', 30);
    t.string('redacted_at', 30);
    t.index(['assignment_id']);
    t.index(['sent_at']);
  });
  // The late-acknowledgement sweep reads only pre-alerts nobody acknowledged or alerted about yet.
  await knex.raw('create index prealerts_unacknowledged on prealerts (sent_at) where acknowledged_at is null and ack_alerted_at is null');
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('prealerts');
  await knex.raw('drop index assignments_by_destination');
  await knex.schema.alterTable('assignments', (t) => {
    t.dropColumn('destination_set_at');
    t.dropColumn('destination_reason');
    t.dropColumn('destination_name');
    t.dropForeign(['destination_hospital_id']);
    t.dropColumn('destination_hospital_id');
    t.dropColumn('handover_at');
  });
  await knex.schema.dropTable('hospitals');
}
