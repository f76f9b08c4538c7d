import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifiedColumns, locationLike, unclassifiedLocationColumns } from '../realtime-server/contract/privacy';
import { dropSchema, freshPostgresUrl, onPostgresPass } from '../realtime-server/testing/testEngine';
import { isPostgresUrl, openDatabase, postgresSchema } from './connection';

/**
 * Which columns say where a patient is, is declared once (realtime-server/contract/privacy.ts) and
 * retention forgets exactly those. This walks the schema the migrations build, every column of every
 * table (on the PostgreSQL pass, PostgreSQL's), so a new column named like a place cannot slip past it.
 */
type Column = { table: string; column: string };

async function columnsOf(db: Knex, url: string): Promise<Column[]> {
  if (isPostgresUrl(url)) {
    const rows = await db('information_schema.columns')
      .where({ table_schema: postgresSchema(url).schema ?? 'public' })
      .orderBy(['table_name', 'ordinal_position']).select<{ table_name: string; column_name: string }[]>('table_name', 'column_name');
    return rows.map((r) => ({ table: r.table_name, column: r.column_name }));
  }
  const tables = await db('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%').orderBy('name').pluck('name') as string[];
  const out: Column[] = [];
  for (const table of tables) {
    const info = await db.raw<{ name: string }[]>(`pragma table_info("${table}")`);
    for (const c of info) out.push({ table, column: c.name });
  }
  return out;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-location-columns-'));
let url: string;
let db: Knex;
beforeAll(async () => {
  url = onPostgresPass() ? await freshPostgresUrl('t') : path.join(dir, 'db.sqlite');
  db = openDatabase(url);
  await db.migrate.latest();
});
afterAll(async () => {
  await db.destroy();
  if (onPostgresPass()) await dropSchema(url);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('every location-like column of the migrated schema is classified in contract/privacy.ts', () => {
  it('none is left unclassified (a patient\'s location, a copy of one, or not a patient\'s with the reason)', async () => {
    const columns = await columnsOf(db, url);
    expect(columns.length).toBeGreaterThan(100); // the walk read the whole schema, not an empty one
    expect(columns.filter((c) => locationLike(c.column)).length).toBeGreaterThanOrEqual(20);
    expect(unclassifiedLocationColumns(columns)).toEqual([]);
  });

  it('names no column the schema lacks (a dropped or renamed column leaves no stale entry)', async () => {
    const present = new Set((await columnsOf(db, url)).map((c) => `${c.table}.${c.column}`));
    expect(classifiedColumns().filter((c) => !present.has(c))).toEqual([]);
  });

  it('fails on a new place-like column no one classified: a migration adding one is caught', async () => {
    // Inside a transaction rolled back after (both engines undo DDL with it): the schema stays as migrated.
    const trx = await db.transaction();
    try {
      await trx.schema.alterTable('cases', (t) => {
        t.double('dropoff_lat');
        t.string('pickup_plus_code', 20);
      });
      await trx.schema.createTable('patient_devices', (t) => {
        t.increments('id');
        t.string('geohash', 12);
        t.double('gps_accuracy_m');
      });
      expect(unclassifiedLocationColumns(await columnsOf(trx, url)).sort())
        .toEqual(['cases.dropoff_lat', 'cases.pickup_plus_code', 'patient_devices.geohash', 'patient_devices.gps_accuracy_m']);
    } finally {
      await trx.rollback();
    }
    expect(unclassifiedLocationColumns(await columnsOf(db, url))).toEqual([]);
  });
});

describe('locationLike', () => {
  it('takes names that place something, whole words or parts', () => {
    const places = ['lat', 'lng', 'pickup_lon', 'latitude', 'home_address', 'place_name', 'last_location', 'position_at', 'accuracy',
      'geohash', 'coords', 'what3words', 'plus_code', 'pluscode', 'gps_fix', 'wkb', 'drop_point', 'pos'];
    expect(places.filter((n) => !locationLike(n))).toEqual([]);
  });

  it('leaves names that only contain the letters (a plate, a translation, a timestamp)', () => {
    const others = ['license_plate', 'plate_key', 'translated', 'updated_at', 'longevity', 'pgno', 'body_redacted', 'speed', 'heading', 'links'];
    expect(others.filter((n) => locationLike(n))).toEqual([]);
  });
});
