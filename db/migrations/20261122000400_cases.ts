import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('cases', (t) => {
    t.string('id', 36).primary(); // UUIDv4
    t.string('description', 2000).notNullable();
    t.string('status', 16).notNullable();
    t.string('case_type', 40);
    t.string('patient_name', 200).notNullable();
    t.string('patient_email', 254).notNullable();
    t.integer('operator_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('ambulance_id').references('id').inTable('ambulances').onDelete('SET NULL');
    // The patient's shared position, 8 decimals.
    t.decimal('latitude', 11, 8);
    t.decimal('longitude', 12, 8);
    t.double('location_accuracy');
    t.string('location_at', 30);
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.string('closed_at', 30);
    t.index(['status']);
    t.index(['ambulance_id']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('cases');
}
