import type { Knex } from 'knex';

/**
 * The call's life (DOMAIN.md §1): a case's priority and when its call came in, and each
 * dispatch of an ambulance to it as an assignment with the time of every step, so that one
 * ambulance's second call never overwrites its first call's times.
 *
 * `cases.assignment_id` names the case's current (or last) assignment. At most one assignment
 * per ambulance and one per case is open (not cleared, not cancelled): partial unique indexes
 * hold that even against a bug in the service.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => {
    t.integer('priority').notNullable().defaultTo(3);
    t.string('call_received_at', 30);
    t.integer('assignment_id');
  });
  // Older cases: the type's priority and their creation as the call's time.
  await knex('cases').update({ call_received_at: knex.ref('created_at') });
  await knex('cases').whereRaw("lower(case_type) in ('heart attack', 'stroke')").update({ priority: 1 });
  await knex('cases').whereRaw("lower(case_type) in ('accident', 'injury', 'medical emergency')").update({ priority: 2 });

  await knex.schema.createTable('assignments', (t) => {
    t.increments('id').primary();
    t.string('case_id', 36).notNullable().references('id').inTable('cases').onDelete('CASCADE');
    t.integer('ambulance_id').references('id').inTable('ambulances').onDelete('SET NULL');
    // The plate when dispatched: a report still names the ambulance after it is deleted.
    t.string('license_plate', 20).notNullable();
    t.string('status', 16).notNullable();
    t.string('dispatched_at', 30).notNullable();
    t.string('en_route_at', 30);
    t.string('on_scene_at', 30);
    t.string('transporting_at', 30);
    t.string('at_hospital_at', 30);
    t.string('cleared_at', 30);
    t.string('cancelled_at', 30);
    t.index(['case_id']);
    t.index(['dispatched_at']);
  });
  await knex.raw("create unique index assignments_open_per_ambulance on assignments (ambulance_id) where status not in ('cleared', 'cancelled')");
  await knex.raw("create unique index assignments_open_per_case on assignments (case_id) where status not in ('cleared', 'cancelled')");

  // An active case holding an ambulance is an open assignment, dispatched when the case took it.
  const held = await knex('cases')
    .join('ambulances', 'ambulances.id', 'cases.ambulance_id')
    .where('cases.status', 'active')
    .select('cases.id', 'cases.ambulance_id', 'cases.dispatched_at', 'cases.updated_at', 'ambulances.license_plate');
  for (const c of held as { id: string; ambulance_id: number; dispatched_at: string | null; updated_at: string; license_plate: string }[]) {
    const rows: unknown[] = await knex('assignments').insert({
      case_id: c.id, ambulance_id: c.ambulance_id, license_plate: c.license_plate, status: 'dispatched', dispatched_at: c.dispatched_at ?? c.updated_at,
    }).returning('id');
    const row = rows[0] as { id: number } | number;
    await knex('cases').where({ id: c.id }).update({ assignment_id: typeof row === 'object' ? row.id : row });
  }
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('assignments');
  await knex.schema.alterTable('cases', (t) => {
    t.dropColumn('assignment_id');
    t.dropColumn('call_received_at');
    t.dropColumn('priority');
  });
}
