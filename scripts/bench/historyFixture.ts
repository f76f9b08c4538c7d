/**
 * A busy centre's year of calls (issue 24), written fast into a fresh database so that the
 * history scenario (scripts/bench/history.ts) measures the lists against it. The schema is the
 * product's: `knex migrate` and the demo seed (accounts, 8 ambulances) first, so every index
 * and trigger is the one a server runs with; then the rows go in bulk (SQLite: one transaction of
 * prepared statements; PostgreSQL: one transaction of multi-row INSERTs, then ANALYZE, which
 * autovacuum would have done over a year).
 *
 * The year (seeded, so every run builds the same one, relative to `now`): calls spread over 365
 * days by hour of day; priorities 1–4 in 10/45/35/10 %; ≈90 % resolved, the rest closed
 * (cancelled), each with one assignment of one of 60 ambulances and its closed_at; the newest
 * calls still open (some active on an ambulance of their own, some pending), as at any moment in
 * a busy centre. Patients' names from a mixed list (Telugu, Hindi, Urdu and European names, some
 * with non-ASCII letters), e-mails, intake addresses in Hyderabad's areas with coordinates, which
 * calls ended more than RETENTION_DAYS ago no longer hold (the retention job's steady state).
 * `cases.search_text`, when the schema has it, is filled as the repository fills it (searchTextOf);
 * the search index follows by the schema's own triggers (SQLite FTS5) or index (PostgreSQL pg_trgm).
 */
import Database from 'better-sqlite3';
import { isPostgresUrl, openDatabase } from '../../db/connection';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { searchTextOf } from '../../db/repositories/caseSearchText';
import { seedDemo } from '../../db/seeds/demo';
import { mulberry32 } from '../../db/seeds/demoHistory';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The server's default RETENTION_DAYS (the bench servers keep it). */
const RETENTION_DAYS = 30;
/** A busy centre's fleet: 1,000+ calls a day need about this many units. */
export const HISTORY_FLEET = 60;

const FIRST = ['Lakshmi', 'Venkatesh', 'Srinivas', 'Padma', 'Ravi', 'Anjali', 'Mohammed', 'Ayesha', 'Suresh', 'Kavitha', 'Rahul', 'Priya', 'Imran', 'Fatima', 'Arjun', 'Deepa',
  'Karthik', 'Sneha', 'Vijay', 'Swathi', 'José', 'Zoë', 'Søren', 'Łukasz', 'Ayşe', 'Renée', 'Đorđe', 'Chloé', 'లక్ష్మి', 'రవి', 'अनिल', 'सीता', 'Nguyễn', 'Jürgen', 'Anaïs', 'Ömer'];
const LAST = ['Reddy', 'Rao', 'Naidu', 'Sharma', 'Khan', 'Begum', 'Goud', 'Varma', 'Chowdary', 'Iyer', 'Patel', 'Siddiqui', 'Kumar', 'Yadav', 'Shetty', 'Pillai',
  'Müller', 'Dvořák', 'García', 'Ødegaard', 'Kowalczyk', 'Öztürk', 'రెడ్డి', 'शर्मा', 'Nair', 'Menon', 'Das', 'Bose'];
const AREAS = ['Banjara Hills', 'Jubilee Hills', 'Kukatpally', 'Gachibowli', 'Madhapur', 'Ameerpet', 'Begumpet', 'Secunderabad', 'Charminar', 'Mehdipatnam',
  'Dilsukhnagar', 'LB Nagar', 'Uppal', 'Kondapur', 'Miyapur', 'Tolichowki', 'Malakpet', 'Himayatnagar', 'Somajiguda', 'Khairatabad'];
const STREETS = ['Road No. 12', 'MG Road', 'Main Road', 'Station Road', 'Temple Street', 'Lake View Colony', '1st Cross', 'Nehru Nagar', 'Gandhi Nagar', 'Market Street'];
const TYPES: Record<number, string[]> = { 1: ['Heart Attack', 'Stroke'], 2: ['Accident', 'Injury', 'Medical Emergency'], 3: ['Other'], 4: ['Other'] };
const OTHER = ['Fall at home', 'Breathing difficulty', 'Abdominal pain', 'High fever', 'Dizziness', 'Back pain', 'Minor burn', 'Vomiting', 'Cut to the hand', 'Diabetic check'];
/** Relative calls per hour of day: a night trough, a late-morning and an evening peak. */
const HOURLY = [0.45, 0.35, 0.3, 0.25, 0.2, 0.3, 0.55, 0.85, 1.15, 1.4, 1.6, 1.65, 1.55, 1.35, 1.25, 1.25, 1.35, 1.5, 1.65, 1.6, 1.35, 1.05, 0.8, 0.6];
const HOURLY_SUM = HOURLY.reduce((a, b) => a + b, 0);

/** What the scenario searches for: each a value the year holds. */
export interface HistoryProbes { name: string; idPrefix: string; addressWord: string; plate: string }

export interface HistoryYear {
  engine: 'sqlite' | 'postgres';
  cases: number; assignments: number; active: number; pending: number; ambulances: number;
  search_text: boolean; from: string; to: string; build_seconds: number; probes: HistoryProbes;
}

type Row = Record<string, string | number | boolean | null>;

/** Fills the database at `databaseUrl` (fresh: a new SQLite file or a new PostgreSQL schema) with `cases` calls over the year before `now`. */
export async function buildHistory(databaseUrl: string, o: { cases: number; now?: number; seed?: number }): Promise<HistoryYear> {
  const t0 = performance.now();
  const now = o.now ?? Date.now();
  const rand = mulberry32(o.seed ?? 24);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const uuid = () => {
    const h = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
    h[12] = '4';
    h[16] = (8 + Math.floor(rand() * 4)).toString(16);
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString();

  const knex = openDatabase(databaseUrl);
  const pg = isPostgresUrl(databaseUrl);
  let fleet: { id: number; license_plate: string }[];
  let hasSearchText: boolean;
  try {
    await knex.migrate.latest();
    await seedDemo(knex);
    const have = await ambulanceRepository.count(knex);
    // With a driver's e-mail, as the demo's: the fan-out's fleet sends each of them a driver link.
    for (let i = have; i < HISTORY_FLEET; i++) await ambulanceRepository.insert(knex, { license_plate: `TS09 EB ${2001 + i}`, status: 'available', driver_email: `history-driver${i}@lifeline.test` });
    fleet = await knex('ambulances').orderBy('id').select('id', 'license_plate');
    hasSearchText = await knex.schema.hasColumn('cases', 'search_text');
  } catch (err) {
    await knex.destroy();
    throw err;
  }

  // The calls in time order: a day's share by the hour curve, the newest still open.
  const n = o.cases;
  const start = now - 365 * DAY;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const day = Math.floor((i / n) * 365);
    let x = rand() * HOURLY_SUM;
    let h = 0;
    while (h < 23 && (x -= HOURLY[h]) > 0) h++;
    times.push(Math.min(now - 60_000, start + day * DAY + h * HOUR + rand() * HOUR));
  }
  times.sort((a, b) => a - b);
  // Open now: the newest calls (a quarter of a percent, at most 12 pending and one active per spare unit but 8,
  // which buildFleet takes for the fan-out's own active cases).
  const open = Math.min(Math.floor(n / 400), 40);
  const pendingN = Math.min(12, Math.floor(open / 3));
  const activeN = Math.min(open - pendingN, fleet.length - 8);
  const openFrom = n - pendingN - activeN;
  const busyUnits = fleet.slice(fleet.length - activeN);

  const cases: Row[] = [];
  const assignments: Row[] = [];
  let unit = 0;
  for (let i = 0; i < n; i++) {
    const at = times[i];
    const r = rand();
    const priority = r < 0.1 ? 1 : r < 0.55 ? 2 : r < 0.9 ? 3 : 4;
    const caseType = pick(TYPES[priority]);
    const first = pick(FIRST), last = pick(LAST);
    const name = `${first} ${last}`;
    const ascii = /^[\x20-\x7e]+$/.test(name);
    const email = ascii ? `${first}.${last}${i % 1000}@example.com`.toLowerCase() : `patient${i}@example.org`;
    const area = pick(AREAS);
    const address = `${1 + Math.floor(rand() * 900)}-${1 + Math.floor(rand() * 99)}, ${pick(STREETS)}, ${area}, Hyderabad 500${String(Math.floor(rand() * 100)).padStart(3, '0')}`;
    const lat = Math.round((17.385 + (rand() - 0.5) * 0.18) * 1e6) / 1e6;
    const lng = Math.round((78.4867 + (rand() - 0.5) * 0.18) * 1e6) / 1e6;
    const id = uuid();
    const isOpen = i >= openFrom;
    const isActive = isOpen && i - openFrom >= pendingN;
    const cancelled = !isOpen && rand() < 0.08;
    const amb = isActive ? busyUnits[i - openFrom - pendingN] : isOpen ? null : fleet[unit++ % fleet.length];
    const dispatched = at + (45 + rand() * 90) * 1000;
    const over = dispatched + (cancelled ? 300 + rand() * 600 : 1800 + rand() * 4800) * 1000;
    const status = !isOpen ? (cancelled ? 'closed' : 'resolved') : isActive ? 'active' : 'pending';
    const assignmentId = amb ? assignments.length + 1 : null;
    if (amb) {
      const step = (s: number) => (isOpen && dispatched + s * 1000 > now ? null : iso(dispatched + s * 1000));
      assignments.push({
        id: assignmentId, case_id: id, ambulance_id: amb.id, license_plate: amb.license_plate,
        status: isActive ? 'dispatched' : cancelled ? 'cancelled' : 'cleared', dispatched_at: iso(dispatched),
        en_route_at: isActive ? null : step(60), on_scene_at: isActive || cancelled ? null : step(600), transporting_at: null, at_hospital_at: null,
        cleared_at: isOpen || cancelled ? null : iso(over), cancelled_at: cancelled ? iso(over) : null,
      });
    }
    // Past the retention period the retention job has cleared the intake location (realtime-server/jobs/retention.ts):
    // a year in its steady state, so that job finds nothing to do while the scenario measures.
    const kept = isOpen || over >= now - RETENTION_DAYS * DAY;
    const c: Row = {
      id, description: caseType === 'Other' ? pick(OTHER) : caseType, status, case_type: caseType, priority,
      patient_name: name, patient_email: email, operator_id: null, ambulance_id: amb?.id ?? null,
      call_received_at: iso(at), created_at: iso(at), updated_at: iso(isOpen ? at : over), closed_at: isOpen ? null : iso(over),
      dispatched_at: amb ? iso(dispatched) : null, assignment_id: assignmentId,
      intake_latitude: kept ? lat : null, intake_longitude: kept ? lng : null, intake_address: kept ? address : null, intake_source: kept ? 'address' : null,
      version: 1, demo: false,
    };
    if (hasSearchText) {
      c.search_text = searchTextOf({
        id, description: String(c.description), status, patient_name: name, patient_email: email, intake_address: kept ? address : null, license_plate: amb?.license_plate,
      });
    }
    cases.push(c);
  }

  try {
    if (pg) {
      await knex.transaction(async (trx) => {
        // 5,000 rows per INSERT, sent as one JSON parameter that PostgreSQL turns into rows of the table's own
        // types (json_populate_recordset): no bound-parameter limit, and ~10× faster than knex's VALUES lists.
        for (const [table, rows] of [['cases', cases], ['assignments', assignments]] as const) {
          if (!rows.length) continue;
          const cols = Object.keys(rows[0]).join(', ');
          for (let i = 0; i < rows.length; i += 5000) {
            await trx.raw(`insert into ${table} (${cols}) select ${cols} from json_populate_recordset(null::${table}, ?)`, [JSON.stringify(rows.slice(i, i + 5000))]);
          }
        }
        await trx.raw("select setval(pg_get_serial_sequence('assignments', 'id'), (select max(id) from assignments))");
        if (busyUnits.length) await trx('ambulances').whereIn('id', busyUnits.map((a) => a.id)).update({ status: 'busy' });
      });
      await knex.raw('analyze');
    }
  } finally {
    await knex.destroy();
  }
  if (!pg) {
    const db = new Database(databaseUrl);
    try {
      db.pragma('journal_mode = WAL');
      // A fixture, not a record: no fsync while it is built.
      db.pragma('synchronous = OFF');
      db.pragma('foreign_keys = ON');
      const insert = (table: string, rows: Row[]) => {
        if (!rows.length) return;
        const cols = Object.keys(rows[0]);
        const stmt = db.prepare(`insert into ${table} (${cols.join(', ')}) values (${cols.map((k) => `@${k}`).join(', ')})`);
        for (const row of rows) stmt.run(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v])));
      };
      // The search index (FTS5, db/migrations/20261127000200_case_lists.ts) is fed one row at a time by an insert
      // trigger, which for a year takes many minutes. So the insert triggers of cases are set aside while the year
      // goes in, each case is given the search_rowid the trigger would give it (the next number), the index is
      // rebuilt once from cases.search_text as the migration builds it, and the triggers are put back exactly as
      // the schema stored them: the same database as a server that took the calls one by one would have.
      const triggers = db.prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'cases' and sql like '%after insert on cases%'").all() as { name: string; sql: string }[];
      const fts = db.prepare("select 1 from sqlite_master where name = 'cases_search'").get() !== undefined;
      const rowids = (db.prepare('select name from pragma_table_info(?)').all('cases') as { name: string }[]).some((c) => c.name === 'search_rowid');
      if (rowids) {
        const base = (db.prepare('select coalesce(max(search_rowid), 0) as m from cases').get() as { m: number }).m;
        cases.forEach((c, i) => { c.search_rowid = base + i + 1; });
      }
      db.transaction(() => {
        for (const t of triggers) db.exec(`drop trigger ${t.name}`);
        insert('cases', cases);
        insert('assignments', assignments);
        const busy = db.prepare("update ambulances set status = 'busy' where id = ?");
        for (const a of busyUnits) busy.run(a.id);
        if (fts) db.exec("insert into cases_search(cases_search) values ('rebuild')");
        for (const t of triggers) db.exec(t.sql);
      })();
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  }

  // Probes from calls of the year's middle (old calls: none of them on the board).
  const mid = cases[Math.floor(n / 3)];
  const plateCase = cases.find((c, i) => i > n / 2 && c.ambulance_id != null);
  const plate = fleet.find((a) => a.id === plateCase?.ambulance_id)?.license_plate ?? fleet[0].license_plate;
  return {
    engine: pg ? 'postgres' : 'sqlite',
    cases: n, assignments: assignments.length, active: activeN, pending: pendingN, ambulances: fleet.length, search_text: hasSearchText,
    from: iso(start), to: iso(now), build_seconds: Math.round((performance.now() - t0) / 100) / 10,
    probes: {
      name: String(mid.patient_name),
      idPrefix: String(cases[Math.floor(n / 2)].id).slice(0, 8),
      // The area's longest word (Kukatpally, Secunderabad, …) of a call of last week: older calls no longer hold their address.
      addressWord: String(cases[Math.floor(n - n / 52)].intake_address).split(', ')[2].split(' ').reduce((a, b) => (b.length > a.length ? b : a)),
      plate,
    },
  };
}
