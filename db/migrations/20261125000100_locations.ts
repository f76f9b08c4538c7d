import type { Knex } from 'knex';

/**
 * Where and who (issue 16).
 * - cases: the location taken on the phone, kept apart from the patient's shared GPS.
 * - ambulances: the source and battery of the latest fix, and the hash of the device secret
 *   a GPS app or tracker reports with (unique: one device, one ambulance).
 * - ambulance_positions: the battery each fix reported.
 * - assignments: the distance driven from en route to on scene and the straight line it
 *   covered, recorded when the crew arrives, which calibrate the arrival estimates.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.double('intake_latitude');
    t.double('intake_longitude');
    t.string('intake_address', 500);
    t.string('intake_source', 16);
  });
  await knex.schema.alterTable('ambulances', (t) => {
    t.string('position_source', 16);
    t.double('battery');
    t.string('device_hash', 64).unique();
    t.string('device_issued_at', 30);
  });
  await knex.schema.alterTable('ambulance_positions', (t) => {
    t.double('battery');
  });
  await knex.schema.alterTable('assignments', (t) => {
    t.double('travel_distance_m');
    t.double('travel_straight_m');
  });
  // The latest fix's source, from the history where there is one (the seed's positions are staff's).
  await knex('ambulances').whereNotNull('position_at').update({
    position_source: knex('ambulance_positions').select('source')
      .whereRaw('ambulance_positions.ambulance_id = ambulances.id').orderBy('recorded_at', 'desc').orderBy('id', 'desc').limit(1),
  });
  await knex('ambulances').whereNotNull('position_at').whereNull('position_source').update({ position_source: 'staff' });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('assignments', (t) => {
    t.dropColumn('travel_distance_m');
    t.dropColumn('travel_straight_m');
  });
  await knex.schema.alterTable('ambulance_positions', (t) => t.dropColumn('battery'));
  await knex.schema.alterTable('ambulances', (t) => {
    t.dropUnique(['device_hash']);
    t.dropColumn('position_source');
    t.dropColumn('battery');
    t.dropColumn('device_hash');
    t.dropColumn('device_issued_at');
  });
  await knex.schema.alterTable('cases', (t) => {
    t.dropColumn('intake_latitude');
    t.dropColumn('intake_longitude');
    t.dropColumn('intake_address');
    t.dropColumn('intake_source');
  });
}
