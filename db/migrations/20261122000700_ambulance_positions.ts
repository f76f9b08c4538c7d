import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('ambulance_positions', (t) => {
    t.increments('id').primary();
    t.integer('ambulance_id').notNullable().references('id').inTable('ambulances').onDelete('CASCADE');
    t.double('latitude').notNullable();
    t.double('longitude').notNullable();
    t.double('accuracy');
    t.double('heading');
    t.double('speed');
    t.string('recorded_at', 30).notNullable(); // the device's time of the fix
    t.string('received_at', 30).notNullable();
    t.string('source', 16).notNullable(); // driver, staff
    t.index(['ambulance_id', 'recorded_at']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('ambulance_positions');
}
