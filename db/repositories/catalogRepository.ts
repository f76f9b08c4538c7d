import type { Knex } from 'knex';
import type { Db } from './types';

/** A target column as the copy needs it. */
export interface CatalogColumn { name: string; type: string; serial: boolean }

const quoted = (name: string) => `"${name}"`;

/**
 * Whole-database statements for moving data between engines (npm run db:copy): what tables
 * and columns a database has, and rows copied table by table. Table names come from the
 * catalog, never from a request.
 */
export const catalogRepository = {
  /** The migrations applied to a database, in order (none before its first start). */
  appliedMigrations: async (db: Knex): Promise<string[]> =>
    (await db.schema.hasTable('knex_migrations')) ? db('knex_migrations').orderBy('id').pluck('name') : [],
  /** The tables of a SQLite file. */
  sqliteTables: (db: Db): Promise<string[]> => db('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%').pluck('name'),
  /** The tables of the PostgreSQL connection's schema, by name. */
  postgresTables: (db: Db): Promise<string[]> => db('pg_tables').whereRaw('schemaname = current_schema()').orderBy('tablename').pluck('tablename'),
  /** The foreign keys between the tables of the PostgreSQL connection's schema. */
  postgresForeignKeys: async (db: Db): Promise<{ child: string; parent: string }[]> => (await db.raw<{ rows: { child: string; parent: string }[] }>(`
    select c.relname as child, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = current_schema()`)).rows,
  /** A PostgreSQL table's columns in order, with their type and whether a serial sequence fills them. */
  async postgresColumns(db: Db, table: string): Promise<CatalogColumn[]> {
    const rows: { column_name: string; data_type: string; column_default: string | null }[] = await db('information_schema.columns')
      .where({ table_name: table }).whereRaw('table_schema = current_schema()').orderBy('ordinal_position')
      .select('column_name', 'data_type', 'column_default');
    return rows.map((r) => ({ name: r.column_name, type: r.data_type, serial: /^nextval\(/.test(r.column_default ?? '') }));
  },
  count: async (db: Db, table: string) => Number((await db(table).count({ n: '*' }).first())?.n ?? 0),
  /** Empties the tables (PostgreSQL), their serial ids starting again at 1. */
  truncate: (db: Db, tables: string[]) => db.raw(`truncate table ${tables.map(quoted).join(', ')} restart identity cascade`),
  /** One page of a SQLite table's rows, in storage order. */
  sqlitePage: (db: Db, table: string, columns: string[], limit: number, offset: number): Promise<Record<string, unknown>[]> =>
    db(table).select(columns).orderBy('rowid').limit(limit).offset(offset),
  insert: (db: Db, table: string, rows: Record<string, unknown>[]) => db(table).insert(rows),
  /** Sets a serial column's sequence past the highest id in the table (PostgreSQL); `schema` names the table's schema, if not the default. */
  continueSerial: (db: Db, schema: string | undefined, table: string, column: string) =>
    db.raw(`select setval(pg_get_serial_sequence(?, ?), coalesce((select max(${quoted(column)}) from ${quoted(table)}), 0) + 1, false)`,
      [schema ? `${quoted(schema)}.${quoted(table)}` : quoted(table), column]),
};
