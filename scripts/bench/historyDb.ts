/**
 * A busy centre's year of cases in a SQLite file, fast (issue 24): ≈1,100 calls a day over the
 * 365 days before now (400,000 by default), with names, e-mails, intake addresses and 20
 * ambulances' plates drawn from small seeded lists, nearly all ended, a few dozen still open.
 * Rows go in through prepared statements in one transaction with their search text computed as
 * the case repository computes it (caseSearchText.ts); the migration's triggers keep the FTS
 * index. Then it times, on the main thread, each query the board and history run (the time a
 * better-sqlite3 call holds the event loop). `tsx scripts/bench/historyDb.ts [--cases N] [--file F] [--keep]`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { openDatabase } from '../../db/connection';
import { seedDemo } from '../../db/seeds/demo';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { searchTextOf } from '../../db/repositories/caseSearchText';

const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const DAY = 86_400_000;
const log = (...a: unknown[]) => console.error(`[historyDb ${new Date().toISOString().slice(11, 19)}]`, ...a);

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(24);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
const FIRST = ['Ana', 'Ravi', 'Åsa', 'Zoë', 'John', 'Maria', 'Chen', 'Fatima', 'Olu', 'Priya', 'Lars', 'Sofia', 'Ahmed', 'Kim', 'Noah', 'Léa', 'Mehmet', 'Yuki', 'Ivan', 'Grace'];
const LAST = ['Lima', 'Kumar', 'Öberg', 'Quinn', 'Smith', 'García', 'Wei', 'Khan', 'Adeyemi', 'Patel', 'Nilsson', 'Rossi', 'Hassan', 'Park', 'Brown', 'Martin', 'Yılmaz', 'Sato', 'Petrov', 'Okafor'];
const STREETS = ['Baker Street', 'Station Road', 'Church Lane', 'High Street', 'Mill Road', 'Park Avenue', 'Banjara Hills Road 12', 'Jubilee Hills Road 36', 'MG Road', 'Lake View Road'];
const WHAT = ['Heart Attack', 'Stroke', 'Fall at home', 'Road collision', 'Breathing difficulty', 'Chest pain', 'Abdominal pain', 'Burns', 'Seizure', 'Allergic reaction'];

/** Builds `n` cases into a fresh SQLite file; answers the number of open calls among them. */
export async function buildHistory(file: string, n: number, end = Date.now()) {
  const knex = openDatabase(file);
  await knex.migrate.latest();
  await seedDemo(knex);
  const have = (await knex('ambulances').count({ n: '*' }).first()) as { n: number };
  for (let i = Number(have.n); i < 20; i++) await ambulanceRepository.insert(knex, { license_plate: `TS09 EB ${2000 + i}`, status: 'available' });
  const plates = await knex<{ id: number; license_plate: string }>('ambulances').orderBy('id').select('id', 'license_plate');
  await knex.destroy();

  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // a fixture, not a record
  const insert = db.prepare(`insert into cases (id, description, status, case_type, patient_name, patient_email, ambulance_id, intake_address,
    intake_latitude, intake_longitude, intake_source, created_at, updated_at, closed_at, priority, call_received_at, search_text, version)
    values (@id, @description, @status, @case_type, @patient_name, @patient_email, @ambulance_id, @intake_address,
    @intake_latitude, @intake_longitude, @intake_source, @created_at, @updated_at, @closed_at, @priority, @call_received_at, @search_text, 1)`);
  const start = end - 365 * DAY;
  let open = 0;
  const build = db.transaction(() => {
    for (let i = 0; i < n; i++) {
      // In time order, as calls arrive; the last few dozen still open.
      const at = start + Math.floor(((i + rand()) / n) * 365 * DAY);
      const isOpen = i >= n - 40;
      if (isOpen) open++;
      const amb = pick(plates);
      const name = `${pick(FIRST)} ${pick(LAST)}`;
      const status = isOpen ? (rand() < 0.5 ? 'pending' : 'active') : rand() < 0.5 ? 'closed' : 'resolved';
      const row = {
        id: randomUUID(), description: pick(WHAT), status, case_type: null, patient_name: name,
        patient_email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}${i % 997}@example.com`,
        ambulance_id: status === 'pending' ? null : amb.id,
        intake_address: rand() < 0.7 ? `${1 + Math.floor(rand() * 400)} ${pick(STREETS)}, Hyderabad` : null,
        intake_latitude: null as number | null, intake_longitude: null as number | null, intake_source: null as string | null,
        created_at: new Date(at).toISOString(), updated_at: new Date(at).toISOString(),
        closed_at: isOpen ? null : new Date(Math.min(end - 1000, at + 3_600_000)).toISOString(),
        priority: 1 + Math.floor(rand() * 4), call_received_at: new Date(at - 60_000).toISOString(), search_text: '',
      };
      if (row.intake_address) Object.assign(row, { intake_latitude: 17.4, intake_longitude: 78.45, intake_source: 'address' });
      row.search_text = searchTextOf({ ...row, license_plate: row.ambulance_id ? amb.license_plate : null });
      insert.run(row);
    }
  });
  build();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return { open, plates: plates.map((p) => p.license_plate) };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const n = Number(opt('cases') ?? 400_000);
  const file = opt('file') ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-history-')), 'history.sqlite');
  const t0 = Date.now();
  log(`building ${n} cases into ${file}`);
  const built = await buildHistory(file, n);
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${built.open} open, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`);
  console.log(JSON.stringify({ file, cases: n, seconds: (Date.now() - t0) / 1000 }));
}
