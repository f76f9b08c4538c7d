import type { Knex } from 'knex';

/**
 * The case lists read only what they answer (issue 24):
 * - the board: open calls by status (cases_status_priority), ended calls by when they ended
 *   (cases_closed_at);
 * - history pages by keyset on (created_at, id), alone or within a status;
 * - the search `q` over `search_text` (the case's SPEC fields, lower-cased by the repository:
 *   db/repositories/caseSearchText.ts), served by SQLite FTS5 with the trigram tokenizer or
 *   PostgreSQL pg_trgm, never by reading rows into Node.
 *
 * SQLite: the FTS table is external content over cases.search_text, keyed by `search_rowid`,
 * a number of the case's own that triggers give it on insert. Not the table's rowid: VACUUM
 * may renumber the rowids of a table without an INTEGER PRIMARY KEY, which would point the
 * index at other cases.
 */
const fold = (text: string) => text.normalize('NFC').toLowerCase();
// A snapshot of searchTextOf at this migration (the repository's may change later; a later migration then backfills again).
const searchText = (c: Record<string, string | null>) =>
  fold([c.id, c.description, c.status, c.patient_name, c.patient_email, c.intake_address, c.license_plate].filter((v) => v).join('\n'));

type Row = Record<string, string | null> & { id: string };
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

async function backfill(knex: Knex) {
  let after = '';
  for (;;) {
    const rows: Row[] = await knex('cases').leftJoin('ambulances', 'ambulances.id', 'cases.ambulance_id')
      .where('cases.id', '>', after).orderBy('cases.id').limit(1000)
      .select('cases.id', 'cases.description', 'cases.status', 'cases.patient_name', 'cases.patient_email', 'cases.intake_address', 'ambulances.license_plate');
    if (!rows.length) return;
    for (const r of rows) await knex('cases').where({ id: r.id }).update({ search_text: searchText(r) });
    after = rows[rows.length - 1].id;
  }
}

/** The schema pg_trgm lives in (its operator class is named with it: a test's search_path holds only its own schema). */
async function trigramSchema(knex: Knex): Promise<string> {
  const find = async () => {
    const res: { rows: { s: string }[] } = await knex.raw("select extnamespace::regnamespace::text as s from pg_extension where extname = 'pg_trgm'");
    return res.rows[0]?.s;
  };
  let schema = await find();
  if (!schema) {
    // Two schemas migrating at once would both create it, and the loser's unique violation aborts its migration's
    // transaction: they take turns (the lock is the transaction's), and the second finds the first's.
    await knex.raw("select pg_advisory_xact_lock(hashtext('lifeline:create extension pg_trgm'))");
    await knex.raw('create extension if not exists pg_trgm schema public').catch((e: Error) => {
      throw new Error(`PostgreSQL extension pg_trgm could not be created (CREATE EXTENSION pg_trgm needs a privileged role once per database): ${e.message}`);
    });
    schema = await find();
  }
  if (!schema) throw new Error('PostgreSQL extension pg_trgm is not there after CREATE EXTENSION');
  return schema;
}

export async function up(knex: Knex) {
  const sqlite = isSqlite(knex);
  await knex.schema.alterTable('cases', (t) => {
    t.text('search_text');
    if (sqlite) t.integer('search_rowid');
    t.index(['status', 'priority', 'call_received_at'], 'cases_status_priority');
    t.index(['closed_at'], 'cases_closed_at');
    t.index(['created_at', 'id'], 'cases_created_at_id');
    t.index(['status', 'created_at', 'id'], 'cases_status_created_at_id');
  });
  await backfill(knex);
  if (sqlite) {
    await knex.raw('update cases set search_rowid = rowid');
    await knex.raw('create unique index cases_search_rowid on cases (search_rowid)');
    await knex.raw("create virtual table cases_search using fts5(search_text, content='cases', content_rowid='search_rowid', tokenize='trigram')");
    await knex.raw("insert into cases_search(cases_search) values ('rebuild')");
    await knex.raw(`create trigger cases_search_insert after insert on cases begin
      update cases set search_rowid = (select coalesce(max(search_rowid), 0) + 1 from cases) where rowid = new.rowid;
      insert into cases_search(rowid, search_text) select search_rowid, search_text from cases where rowid = new.rowid;
    end`);
    await knex.raw(`create trigger cases_search_delete after delete on cases begin
      insert into cases_search(cases_search, rowid, search_text) values ('delete', old.search_rowid, old.search_text);
    end`);
    await knex.raw(`create trigger cases_search_update after update of search_text on cases begin
      insert into cases_search(cases_search, rowid, search_text) values ('delete', old.search_rowid, old.search_text);
      insert into cases_search(rowid, search_text) values (new.search_rowid, new.search_text);
    end`);
  } else {
    const schema = await trigramSchema(knex);
    await knex.raw(`create index cases_search_text_trgm on cases using gin (search_text "${schema}".gin_trgm_ops)`);
  }
}

export async function down(knex: Knex) {
  const sqlite = isSqlite(knex);
  if (sqlite) {
    for (const t of ['cases_search_insert', 'cases_search_delete', 'cases_search_update']) await knex.raw(`drop trigger if exists ${t}`);
    await knex.raw('drop table if exists cases_search');
    await knex.raw('drop index if exists cases_search_rowid');
  } else {
    await knex.raw('drop index if exists cases_search_text_trgm');
  }
  await knex.schema.alterTable('cases', (t) => {
    t.dropIndex([], 'cases_status_priority');
    t.dropIndex([], 'cases_closed_at');
    t.dropIndex([], 'cases_created_at_id');
    t.dropIndex([], 'cases_status_created_at_id');
  });
  await knex.schema.alterTable('cases', (t) => {
    t.dropColumn('search_text');
    if (sqlite) t.dropColumn('search_rowid');
  });
}
