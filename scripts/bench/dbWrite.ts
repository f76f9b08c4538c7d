/**
 * Baseline (3): the position write path through Knex vs prepared better-sqlite3 statements,
 * one transaction per position and a batch per transaction, on a fresh SQLite file with the
 * server's pragmas (WAL, synchronous=FULL). Both run the statements of the server's own
 * position store (positionRepository): the ambulance, the history row, the latest position.
 * Run as a child: prints one JSON line.
 */
import Database from 'better-sqlite3';
import { openDatabase } from '../../db/connection';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { type NewPosition, type PositionStore, positionRepository } from '../../db/repositories/positionRepository';
import { freshSqlite } from './server';

const n = Number(process.argv[process.argv.indexOf('--n') + 1]) || 2000;
const batch = Number(process.argv[process.argv.indexOf('--batch') + 1]) || 50;
const file = freshSqlite('dbwrite');
const knex = openDatabase(file);
await knex.migrate.latest();
const ambId = await ambulanceRepository.insert(knex, { license_plate: 'DB BENCH', status: 'busy' });
let seq = Date.now();
const row = (): NewPosition => {
  const t = new Date(seq++).toISOString();
  return { ambulance_id: ambId, latitude: 17.38, longitude: 78.48, accuracy: 5, heading: null, speed: null, recorded_at: t, received_at: t, source: 'driver', battery: null };
};

const latest = (r: NewPosition) => ({ latitude: r.latitude, longitude: r.longitude, accuracy: r.accuracy, heading: null, speed: null, position_at: r.recorded_at, place_name: null, position_source: r.source, battery: null });

/** The statements recordPosition runs for a fix newer than the latest (no replay look-up then: positionWriter.ts). */
async function writeOne(store: PositionStore, r: NewPosition) {
  await store.latestFixOf(ambId);
  await store.insert(r);
  await store.setLatest(ambId, latest(r));
}

async function time(label: string, fn: () => Promise<void> | void) {
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  return { label, positions: n, ms, usPerPosition: (ms * 1000) / n, perSecond: (n / ms) * 1000 };
}

const results = [];
results.push(await time('knex, 1 per transaction', async () => {
  for (let i = 0; i < n; i++) await knex.transaction((trx) => writeOne(positionRepository.knexStore(trx), row()));
}));
results.push(await time(`knex, ${batch} per transaction`, async () => {
  for (let i = 0; i < n; i += batch) {
    await knex.transaction(async (trx) => { const store = positionRepository.knexStore(trx); for (let j = 0; j < batch; j++) await writeOne(store, row()); });
  }
}));
await knex.destroy();

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
const prepared = positionRepository.preparedStore(db);
// The prepared store answers synchronously, so the statements run inside better-sqlite3's own transactions.
const one = (r: NewPosition) => { void prepared.latestFixOf(ambId); void prepared.insert(r); void prepared.setLatest(ambId, latest(r)); };
const single = db.transaction(one);
const many = db.transaction((rows: NewPosition[]) => { for (const r of rows) one(r); });
results.push(await time('prepared, 1 per transaction', () => { for (let i = 0; i < n; i++) single(row()); }));
results.push(await time(`prepared, ${batch} per transaction`, () => { for (let i = 0; i < n; i += batch) many(Array.from({ length: batch }, row)); }));
db.close();
process.stdout.write(`${JSON.stringify(results)}\n`);
