import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('ambulances', (t) => {
    t.increments('id').primary();
    t.string('license_plate', 20).notNullable();
    t.string('plate_key', 20).notNullable().unique(); // upper-cased, no spaces or dashes: plates are unique however typed
    t.string('status', 16).notNullable().defaultTo('available');
    t.string('driver_email', 254);
    // Latest position (the history is in ambulance_positions).
    t.double('latitude');
    t.double('longitude');
    t.double('accuracy');
    t.double('heading');
    t.double('speed');
    t.string('position_at', 30);
    t.string('place_name', 500);
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('ambulances');
}
