import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('geocode_cache', (t) => {
    t.string('key', 40).primary(); // "lat,lon" rounded to 5 decimals (about a metre)
    t.string('display_name', 500).notNullable();
    t.string('created_at', 30).notNullable();
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('geocode_cache');
}
