/**
 * Baseline (3): the position write path through Knex vs prepared better-sqlite3 statements,
 * one transaction per position and a batch per transaction, on a fresh SQLite file with the
 * server's pragmas (WAL, synchronous=FULL). Run as a child: prints one JSON line.
 */
import Database from 'better-sqlite3';
import { openDatabase } from '../../db/connection';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { freshSqlite } from './server';

const n = Number(process.argv[process.argv.indexOf('--n') + 1]) || 2000;
const batch = Number(process.argv[process.argv.indexOf('--batch') + 1]) || 50;
const file = freshSqlite('dbwrite');
const knex = openDatabase(file);
await knex.migrate.latest();
const now = () => new Date().toISOString();
const ambId = await ambulanceRepository.insert(knex, { license_plate: 'DB BENCH', status: 'busy' });
let seq = Date.now();
const row = () => {
  const t = new Date(seq++).toISOString();
  return { ambulance_id: ambId, latitude: 17.38, longitude: 78.48, accuracy: 5, heading: null, speed: null, recorded_at: t, received_at: t, source: 'driver' };
};

/** The statements recordPosition runs for one fix (the ambulance, the history row, the latest position). */
async function knexOne(trx: any, r: ReturnType<typeof row>) {
  await trx('ambulances').where({ id: ambId }).first();
  await trx('ambulance_positions').insert(r);
  await trx('ambulances').where({ id: ambId }).andWhere((q: any) => q.whereNull('position_at').orWhere('position_at', '<=', r.recorded_at))
    .update({ latitude: r.latitude, longitude: r.longitude, accuracy: r.accuracy, heading: null, speed: null, position_at: r.recorded_at, place_name: null, updated_at: now(), version: knex.raw('version + 1') });
}

async function time(label: string, fn: () => Promise<void> | void) {
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  return { label, positions: n, ms, usPerPosition: (ms * 1000) / n, perSecond: (n / ms) * 1000 };
}

const results = [];
results.push(await time('knex, 1 per transaction', async () => {
  for (let i = 0; i < n; i++) await knex.transaction((trx) => knexOne(trx, row()));
}));
results.push(await time(`knex, ${batch} per transaction`, async () => {
  for (let i = 0; i < n; i += batch) await knex.transaction(async (trx) => { for (let j = 0; j < batch; j++) await knexOne(trx, row()); });
}));
await knex.destroy();

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
const find = db.prepare('select * from ambulances where id = ?');
const insert = db.prepare('insert into ambulance_positions (ambulance_id, latitude, longitude, accuracy, heading, speed, recorded_at, received_at, source) values (@ambulance_id, @latitude, @longitude, @accuracy, @heading, @speed, @recorded_at, @received_at, @source)');
const latest = db.prepare(`update ambulances set latitude = @latitude, longitude = @longitude, accuracy = @accuracy, heading = null, speed = null, position_at = @recorded_at, place_name = null, updated_at = @now, version = version + 1
  where id = @ambulance_id and (position_at is null or position_at <= @recorded_at)`);
const one = (r: ReturnType<typeof row>) => { find.get(ambId); insert.run(r); latest.run({ ...r, now: now() }); };
const single = db.transaction(one);
const many = db.transaction((rows: ReturnType<typeof row>[]) => { for (const r of rows) one(r); });
results.push(await time('prepared, 1 per transaction', () => { for (let i = 0; i < n; i++) single(row()); }));
results.push(await time(`prepared, ${batch} per transaction`, () => { for (let i = 0; i < n; i += batch) many(Array.from({ length: batch }, row)); }));
db.close();
process.stdout.write(`${JSON.stringify(results)}\n`);
