import type { Knex } from 'knex';

/**
 * The patient's location link gets a secret of its own (`/location/{caseId}?t=TOKEN`, stored
 * as its SHA-256 hash): the case id is shown to tracking-link holders, so it must not be what
 * lets a caller write the patient's position. `dispatched_at` is when the case took its current
 * ambulance: a tracking link shows only the path driven since then, never the previous case's.
 * Cases from before this migration have no location token (their old links stop working); an
 * active case holding an ambulance counts as dispatched at its last update, the latest moment
 * the ambulance can have been assigned to it.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.string('location_token_hash', 64);
    t.string('dispatched_at', 30);
  });
  await knex('cases').whereNotNull('ambulance_id').update({ dispatched_at: knex.ref('updated_at') });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.dropColumn('location_token_hash');
    t.dropColumn('dispatched_at');
  });
}
