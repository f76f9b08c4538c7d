import fs from 'node:fs';
import type { Knex } from 'knex';
import { isPostgresUrl, openDatabase, postgresSchema } from './connection';
import { migrationSource } from './migrationSource';
import { type CatalogColumn, catalogRepository } from './repositories/catalogRepository';

/**
 * Copies a Lifeline SQLite database into PostgreSQL, for a centre that outgrows one file
 * (`npm run db:copy`, scripts/copySqliteToPostgres.ts, whose --help says what it does).
 */

/** Lifeline's own bookkeeping of migrations is not copied: the target's migrations are its own. */
const SKIP = new Set(['knex_migrations', 'knex_migrations_lock']);

export interface CopyOptions { from: string; to: string; force?: boolean; batch?: number; log?: (line: string) => void }
export interface CopyResult { tables: { table: string; rows: number }[]; rows: number; seconds: number; emptied: boolean }

export class CopyError extends Error {}

export async function copySqliteToPostgres(opts: CopyOptions): Promise<CopyResult> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const batch = opts.batch ?? 500;
  if (!isPostgresUrl(opts.to)) throw new CopyError(`--to must be a postgres:// URL, not ${opts.to}`);
  if (isPostgresUrl(opts.from) || !fs.existsSync(opts.from)) throw new CopyError(`--from must be an existing SQLite file: ${opts.from}`);
  if (!Number.isInteger(batch) || batch < 1) throw new CopyError('--batch must be a positive integer');
  const started = Date.now();
  const source = openDatabase(opts.from);
  const target = openDatabase(opts.to);
  try {
    // 1. Same version on both sides.
    const known = await migrationSource.getMigrations([]);
    const applied = await catalogRepository.appliedMigrations(source);
    const pending = known.filter((m) => !applied.includes(m));
    const unknown = applied.filter((m) => !known.includes(m));
    if (unknown.length) throw new CopyError(`the SQLite file has migrations this code does not know (${unknown.join(', ')}): use the code that wrote it`);
    if (pending.length) throw new CopyError(`the SQLite file is ${pending.length} migration(s) behind (${pending[0]}…): start the server on it once (it migrates on start), then copy`);
    log(`[db:copy] source ${opts.from}: ${applied.length} migrations, up to date`);
    await target.migrate.latest();
    const { schema } = postgresSchema(opts.to);
    log(`[db:copy] target ${opts.to.replace(/\/\/[^@]*@/, '//***@')} migrated${schema ? ` (schema ${schema})` : ''}`);

    // 2. Tables in foreign-key order, from the target's catalog.
    const tables = await tablesInForeignKeyOrder(target);
    const sourceTables = new Set(await catalogRepository.sqliteTables(source));
    const missing = tables.filter((t) => !sourceTables.has(t));
    if (missing.length) throw new CopyError(`the SQLite file lacks tables the target has: ${missing.join(', ')}`);

    const result: CopyResult = { tables: [], rows: 0, seconds: 0, emptied: false };
    // One consistent read of the file (a read transaction: WAL keeps its snapshot) …
    await source.transaction(async (src) => {
      // … and one transaction on the target: all or nothing.
      await target.transaction(async (trx) => {
        const nonEmpty: string[] = [];
        for (const t of tables) if ((await catalogRepository.count(trx, t)) > 0) nonEmpty.push(t);
        if (nonEmpty.length && !opts.force) throw new CopyError(`the target already holds data (${nonEmpty.join(', ')}): refusing to merge; --force empties it first`);
        if (nonEmpty.length) {
          await catalogRepository.truncate(trx, tables);
          result.emptied = true;
          log(`[db:copy] --force: emptied ${nonEmpty.join(', ')}`);
        }
        for (const table of tables) {
          const columns = await catalogRepository.postgresColumns(trx, table);
          const names = columns.map((c) => c.name);
          const want = await catalogRepository.count(src, table);
          let copied = 0;
          for (let offset = 0; ; offset += batch) {
            const rows = await catalogRepository.sqlitePage(src, table, names, batch, offset);
            if (rows.length === 0) break;
            await catalogRepository.insert(trx, table, rows.map((r) => convertRow(r, columns)));
            copied += rows.length;
            if (rows.length < batch) break;
          }
          // 4. Serial ids continue after the highest copied one.
          for (const c of columns.filter((col) => col.serial)) {
            await catalogRepository.continueSerial(trx, schema, table, c.name);
          }
          // 5. Counted on both sides before the commit.
          const have = await catalogRepository.count(trx, table);
          if (have !== want || copied !== want) throw new CopyError(`${table}: ${want} rows in the file, ${copied} copied, ${have} in the target`);
          result.tables.push({ table, rows: have });
          result.rows += have;
          log(`[db:copy] ${table.padEnd(22)} ${String(have).padStart(8)} rows`);
        }
      });
    });
    result.seconds = (Date.now() - started) / 1000;
    log(`[db:copy] done: ${result.tables.length} tables, ${result.rows} rows in ${result.seconds.toFixed(1)} s; every table's row count matches. Start Lifeline with DATABASE_URL=<the target>.`);
    return result;
  } finally {
    await source.destroy();
    await target.destroy();
  }
}

/** SQLite keeps booleans as 0/1: PostgreSQL wants booleans. Everything else goes as it is. */
function convertRow(row: Record<string, unknown>, columns: CatalogColumn[]) {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const v = row[c.name];
    out[c.name] = c.type === 'boolean' && v != null ? Boolean(Number(v)) : v;
  }
  return out;
}

/** Every table of the target's schema (but knex's own), parents before the tables that reference them. */
export async function tablesInForeignKeyOrder(db: Knex): Promise<string[]> {
  const tables = (await catalogRepository.postgresTables(db)).filter((t) => !SKIP.has(t));
  const edges = await catalogRepository.postgresForeignKeys(db);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: string) => {
    if (state.get(t) === 'done') return;
    if (state.get(t) === 'visiting') throw new CopyError(`foreign keys form a cycle through ${t}`);
    state.set(t, 'visiting');
    for (const e of edges) if (e.child === t && e.parent !== t && tables.includes(e.parent)) visit(e.parent);
    state.set(t, 'done');
    order.push(t);
  };
  for (const t of tables) visit(t);
  return order;
}
