import type { Knex } from 'knex';

/**
 * Address searches at intake (issue 16): the geocoder's answers, keyed by the normalised text,
 * so that a repeated search does not spend another of the upstream's one request a second.
 * Addresses typed for patients: the retention job deletes them with the reverse cache.
 */
export async function up(knex: Knex) {
  await knex.schema.createTable('geocode_searches', (t) => {
    t.string('query', 300).primary(); // trimmed, lower case, single spaces
    t.text('results').notNullable(); // JSON: GeocodeSearchResult[]
    t.string('created_at', 30).notNullable();
    t.index('created_at');
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('geocode_searches');
}
