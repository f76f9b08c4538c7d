import type { Knex } from 'knex';

/**
 * Two reads on the hot paths that read every assignment ever made (hotPathIndexes.test.ts plans them on
 * PostgreSQL with sequential scans priced out): a dispatch asks when the unit last came free
 * (`max(coalesce(cleared_at, cancelled_at)) … where ambulance_id = ?`), which the partial index of open
 * assignments cannot answer; and the arrival model's calibration reads the latest trips by `on_scene_at`.
 */
export async function up(knex: Knex) {
  await knex.raw('create index assignments_by_ambulance on assignments (ambulance_id)');
  await knex.raw('create index assignments_by_arrival on assignments (on_scene_at) where en_route_at is not null');
}

export async function down(knex: Knex) {
  await knex.raw('drop index assignments_by_arrival');
  await knex.raw('drop index assignments_by_ambulance');
}
