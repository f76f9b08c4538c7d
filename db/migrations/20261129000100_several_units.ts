import type { Knex } from 'knex';

/**
 * Issue 29: several units on one call, each with its capability (NEMSIS eResponse.07).
 *
 * - `ambulances.capability`: als, bls, cct or responder (a car that treats but cannot convey);
 *   every ambulance so far is taken to be ALS, the default.
 * - `assignments.capability`: the unit's capability when it was dispatched, as the plate is kept:
 *   a report still counts a call's clock by what was sent, whatever the unit became later.
 * - A case may hold several open assignments: the per-case unique index goes; one open
 *   assignment per ambulance stays (no unit on two calls).
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('ambulances', (t) => {
    t.string('capability', 12).notNullable().defaultTo('als');
  });
  await knex.schema.alterTable('assignments', (t) => {
    t.string('capability', 12).notNullable().defaultTo('als');
  });
  await knex.raw('drop index assignments_open_per_case');
  // The open units of a call, read at every step of each of them.
  await knex.raw("create index assignments_open_by_case on assignments (case_id) where status not in ('cleared', 'cancelled')");
}

export async function down(knex: Knex) {
  await knex.raw('drop index assignments_open_by_case');
  // Back to one open assignment per case: any second one is stood down first.
  const open = await knex('assignments').whereNotIn('status', ['cleared', 'cancelled']).orderBy('id').select('id', 'case_id', 'dispatched_at');
  const seen = new Set<string>();
  for (const a of open as { id: number; case_id: string; dispatched_at: string }[]) {
    if (seen.has(a.case_id)) await knex('assignments').where({ id: a.id }).update({ status: 'cancelled', cancelled_at: a.dispatched_at });
    seen.add(a.case_id);
  }
  await knex.raw("create unique index assignments_open_per_case on assignments (case_id) where status not in ('cleared', 'cancelled')");
  await knex.schema.alterTable('assignments', (t) => { t.dropColumn('capability'); });
  await knex.schema.alterTable('ambulances', (t) => { t.dropColumn('capability'); });
}
