import type { Knex } from 'knex';
import { expect } from 'vitest';

/** Every table of the database (SQLite, or the current schema on Postgres), including knex's own, without SQLite's internal ones. */
export async function tableNames(db: Knex): Promise<string[]> {
  if (db.client.config.client === 'pg') {
    const { rows } = await db.raw('select tablename as name from pg_tables where schemaname = current_schema()');
    return (rows as { name: string }[]).map((r) => r.name).sort();
  }
  const rows: { name: string }[] = await db('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%').select('name');
  return rows.map((r) => r.name).sort();
}

/** Every row of every application table (knex's bookkeeping left out), each table's rows in a stable order. */
export async function dbSnapshot(db: Knex): Promise<Record<string, unknown[]>> {
  const tables = (await tableNames(db)).filter((t) => !t.startsWith('knex_'));
  const snapshot: Record<string, unknown[]> = {};
  if (db.client.config.client === 'pg') {
    // One round trip for every table (a test comparing before and after runs this twice per request).
    const columns = tables.map((t, i) => `(select coalesce(json_agg(r), '[]'::json) from ${db.client.wrapIdentifier(t)} r) as t${i}`);
    const { rows } = await db.raw(`select ${columns.join(', ')}`);
    tables.forEach((t, i) => { snapshot[t] = (rows[0][`t${i}`] as unknown[]).map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r)); });
    return snapshot;
  }
  for (const table of tables) {
    const rows = await db(table).select('*');
    snapshot[table] = rows.map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r));
  }
  return snapshot;
}

/** Runs `act` and asserts that it changed no row of any table; returns what `act` returned. */
export async function expectNoWrite<T>(db: Knex, act: () => Promise<T>): Promise<T> {
  const before = await dbSnapshot(db);
  const result = await act();
  expect(await dbSnapshot(db)).toEqual(before);
  return result;
}

/** Asserts a refusal: exactly this status and exactly the body `{error}`. */
export function expectError(res: { status: number; body: unknown }, status: number, error: string | RegExp) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: typeof error === 'string' ? error : expect.stringMatching(error) } });
}
