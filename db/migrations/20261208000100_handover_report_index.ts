import type { Knex } from 'knex';

/**
 * The handover report (issue 30) reads a period's arrivals at hospital by `at_hospital_at`: a partial
 * index on the arrivals alone (most assignments of a busy year convey, but none of the cancelled or
 * treated-on-scene ones need be in it) that also holds the destination and the handover time, so the
 * report reads the index only, never the wide assignment rows.
 */
export async function up(knex: Knex) {
  await knex.raw('create index assignments_at_hospital on assignments (at_hospital_at, handover_at, destination_hospital_id, destination_name) where at_hospital_at is not null');
}

export async function down(knex: Knex) {
  await knex.raw('drop index assignments_at_hospital');
}
