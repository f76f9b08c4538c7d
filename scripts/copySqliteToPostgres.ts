// npm run db:copy -- --from data/lifeline.sqlite --to postgres://user@host:5432/db
// Copies a Lifeline SQLite database into PostgreSQL, for a centre that outgrows one file.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { isPostgresUrl, openDatabase, postgresSchema } from '../db/connection';
import { migrationSource } from '../db/migrationSource';

const HELP = `Usage: npm run db:copy -- --from FILE.sqlite --to postgres://user@host:port/db[?schema=NAME] [options]

Copies every table of a Lifeline SQLite database into PostgreSQL:
  1. checks that the SQLite file is at the same migration as this code (start the server on it
     once if not) and migrates the target to the same version;
  2. refuses a target that already holds data (--force empties it first; it never merges);
  3. copies every table in foreign-key order, in batches, inside ONE transaction on the target
     (a failure leaves the target as it was), from one consistent read of the file;
  4. sets each serial id sequence past the highest copied id;
  5. compares the row count of every table before it commits, and prints a summary.

Stop the server that uses the SQLite file first (writes made during the copy are not copied).
Then start Lifeline with DATABASE_URL set to the target.

Options:
  --from FILE    the SQLite database (e.g. data/lifeline.sqlite)
  --to URL       the PostgreSQL database: postgres://user:password@host:5432/db, ?schema=NAME for a schema
  --force        empty every Lifeline table of the target before copying (its data is lost)
  --batch N      rows per INSERT (default 500)
  --help         this text`;

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
    const applied: string[] = (await source.schema.hasTable('knex_migrations')) ? await source('knex_migrations').orderBy('id').pluck('name') : [];
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
    const sourceTables = new Set(await sqliteTables(source));
    const missing = tables.filter((t) => !sourceTables.has(t));
    if (missing.length) throw new CopyError(`the SQLite file lacks tables the target has: ${missing.join(', ')}`);

    const result: CopyResult = { tables: [], rows: 0, seconds: 0, emptied: false };
    // One consistent read of the file (a read transaction: WAL keeps its snapshot) …
    await source.transaction(async (src) => {
      // … and one transaction on the target: all or nothing.
      await target.transaction(async (trx) => {
        const nonEmpty: string[] = [];
        for (const t of tables) if (Number((await trx(t).count({ n: '*' }).first())?.n) > 0) nonEmpty.push(t);
        if (nonEmpty.length && !opts.force) throw new CopyError(`the target already holds data (${nonEmpty.join(', ')}): refusing to merge; --force empties it first`);
        if (nonEmpty.length) {
          await trx.raw(`truncate table ${tables.map((t) => `"${t}"`).join(', ')} restart identity cascade`);
          result.emptied = true;
          log(`[db:copy] --force: emptied ${nonEmpty.join(', ')}`);
        }
        for (const table of tables) {
          const columns = await targetColumns(trx, table);
          const names = columns.map((c) => c.name);
          const want = await src(table).count({ n: '*' }).first().then((r) => Number(r?.n));
          let copied = 0;
          for (let offset = 0; ; offset += batch) {
            const rows: Record<string, unknown>[] = await src(table).select(names).orderBy('rowid').limit(batch).offset(offset);
            if (rows.length === 0) break;
            await trx(table).insert(rows.map((r) => convertRow(r, columns)));
            copied += rows.length;
            if (rows.length < batch) break;
          }
          // 4. Serial ids continue after the highest copied one.
          for (const c of columns.filter((col) => col.serial)) {
            await trx.raw(`select setval(pg_get_serial_sequence(?, ?), coalesce((select max("${c.name}") from "${table}"), 0) + 1, false)`, [qualified(schema, table), c.name]);
          }
          // 5. Counted on both sides before the commit.
          const have = Number((await trx(table).count({ n: '*' }).first())?.n);
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

const qualified = (schema: string | undefined, table: string) => (schema ? `"${schema}"."${table}"` : `"${table}"`);

interface Column { name: string; type: string; serial: boolean }

async function targetColumns(db: Knex, table: string): Promise<Column[]> {
  const rows: { column_name: string; data_type: string; column_default: string | null }[] = await db('information_schema.columns')
    .where({ table_name: table }).whereRaw('table_schema = current_schema()').orderBy('ordinal_position')
    .select('column_name', 'data_type', 'column_default');
  return rows.map((r) => ({ name: r.column_name, type: r.data_type, serial: /^nextval\(/.test(r.column_default ?? '') }));
}

/** SQLite keeps booleans as 0/1: PostgreSQL wants booleans. Everything else goes as it is. */
function convertRow(row: Record<string, unknown>, columns: Column[]) {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const v = row[c.name];
    out[c.name] = c.type === 'boolean' && v != null ? Boolean(Number(v)) : v;
  }
  return out;
}

async function sqliteTables(db: Knex): Promise<string[]> {
  return db('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%').pluck('name');
}

/** Every table of the target's schema (but knex's own), parents before the tables that reference them. */
export async function tablesInForeignKeyOrder(db: Knex): Promise<string[]> {
  const tables: string[] = (await db('pg_tables').whereRaw('schemaname = current_schema()').orderBy('tablename').pluck('tablename'))
    .filter((t: string) => !SKIP.has(t));
  const edges: { child: string; parent: string }[] = (await db.raw(`
    select c.relname as child, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = current_schema()`)).rows;
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

async function main() {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean', default: false },
      batch: { type: 'string', default: '500' }, help: { type: 'boolean', default: false },
    },
  });
  if (values.help) { console.log(HELP); return 0; }
  if (!values.from || !values.to) { console.error(`${HELP}\n\n--from and --to are required.`); return 2; }
  try {
    await copySqliteToPostgres({ from: values.from, to: values.to, force: values.force, batch: Number(values.batch) });
    return 0;
  } catch (err) {
    console.error(`[db:copy] failed (the copy was rolled back: no rows were written to the target): ${(err as Error).message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main().then((code) => process.exit(code));
