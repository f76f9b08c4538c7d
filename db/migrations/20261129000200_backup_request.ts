import type { Knex } from 'knex';

/**
 * Issue 29: a crew's request for backup is part of its call, not only an event: the call's latest
 * request (contract BackupAlert as JSON) stays on the case, so a board opened after it, or a tab
 * that was offline when it came, still shows it until a unit is added after it or the call ends.
 */
export async function up(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => { t.text('backup_request'); });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('cases', (t) => { t.dropColumn('backup_request'); });
}
