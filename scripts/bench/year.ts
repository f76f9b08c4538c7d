/**
 * A busy centre's year (issue 17), built straight into a fresh SQLite file: the reports and
 * reportStorm benches measure on it.
 *
 * The year (seeded, so every run builds the same one): arrivals by hour of day (a night trough,
 * a late-morning and an evening peak); priorities 1–4 in 10/45/35/10 %; call processing, turnout,
 * travel, on scene, transport and hospital turnaround drawn from log-normals around typical
 * urban figures, the handover (eTimes.12) with the demo history's long tail (drawHandoverS, from a
 * generator of its own so that the rest of the year stays as it was); 30 % treated on scene (no transport steps), 3 % with en route skipped, 4 % of
 * calls cancelled before arrival, 5 % with a first ambulance cancelled and a second sent; 20
 * ambulances taken in turn (the fleet's size, not a schedule: utilisation over 100 % is the model's,
 * not a report's error).
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { openDatabase } from '../../db/connection';
import { DEMO_AMBULANCES, seedDemo } from '../../db/seeds/demo';
import { drawHandoverS, mulberry32 } from '../../db/seeds/demoHistory';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';

const AMBULANCES = 20;
const DAY = 86_400_000;

/** mulberry32: a small seeded generator, so that every run measures the same year. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rand = rng(17);
/** A log-normal draw with this median (s) and spread (σ of the log). */
function logNormal(medianS: number, sigma: number) {
  const u = 1 - rand();
  const v = rand();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(5, Math.round(medianS * Math.exp(sigma * z)));
}
/** Relative calls per hour of day: a trough at 4 am, a late-morning and an evening peak. */
const HOURLY = [0.45, 0.38, 0.32, 0.3, 0.3, 0.36, 0.55, 0.8, 1.0, 1.15, 1.25, 1.3, 1.3, 1.25, 1.2, 1.2, 1.25, 1.3, 1.35, 1.3, 1.15, 0.95, 0.75, 0.58];
const HOURLY_SUM = HOURLY.reduce((a, b) => a + b, 0);
function hourOfDay() {
  let x = rand() * HOURLY_SUM;
  for (let h = 0; h < 24; h++) { x -= HOURLY[h]; if (x <= 0) return h; }
  return 23;
}
function priority() {
  const x = rand();
  return x < 0.1 ? 1 : x < 0.55 ? 2 : x < 0.9 ? 3 : 4;
}
const TYPES: Record<number, string[]> = {
  1: ['Heart Attack', 'Stroke', 'Cardiac Arrest'], 2: ['Accident', 'Injury', 'Medical Emergency'], 3: ['Fall', 'Sick Person', 'Abdominal Pain'], 4: ['Transfer', 'Minor Injury'],
};
/** Travel is shorter for the urgent: the nearest unit, lights and sirens. */
const TRAVEL_MEDIAN_S: Record<number, number> = { 1: 420, 2: 600, 3: 840, 4: 960 };

/** Builds the year of about `targetAssignments` assignments ending at `end` into the SQLite file; answers what it holds. */
export async function buildYear(file: string, end: number, targetAssignments: number) {
  rand = rng(17);
  const handoverRand = mulberry32(29);
  const knex = openDatabase(file);
  await knex.migrate.latest();
  await seedDemo(knex);
  for (let i = DEMO_AMBULANCES.length; i < AMBULANCES; i++) await ambulanceRepository.insert(knex, { license_plate: `TS09 EB ${2000 + i}`, status: 'available' });
  const plates = await knex<{ id: number; license_plate: string }>('ambulances').orderBy('id').select('id', 'license_plate');
  await knex.destroy();

  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // A fixture, not a record: no fsync while it is built.
  db.pragma('synchronous = OFF');
  const insertCase = db.prepare(`insert into cases (id, description, status, case_type, patient_name, patient_email, created_at, updated_at, closed_at, priority, call_received_at)
    values (?, ?, 'closed', ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertAssignment = db.prepare(`insert into assignments (case_id, ambulance_id, license_plate, status, dispatched_at, en_route_at, on_scene_at, transporting_at, at_hospital_at, handover_at, cleared_at, cancelled_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const setLast = db.prepare('update cases set assignment_id = ? where id = ?');
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const start = end - 365 * DAY;
  // ≈1.05 assignments per call (the re-sent ones).
  const calls = Math.round(targetAssignments / 1.05);
  const perDay = calls / 365;
  let unit = 0;
  let assignments = 0;
  const counts = { calls: 0, cancelled_calls: 0, resent: 0, on_scene_only: 0, en_route_skipped: 0 };
  const build = db.transaction(() => {
    for (let d = 0; d < 365; d++) {
      const today = Math.round(perDay * (d + 1)) - Math.round(perDay * d);
      for (let k = 0; k < today; k++) {
        const at = start + d * DAY + hourOfDay() * 3_600_000 + Math.floor(rand() * 3_600_000);
        const p = priority();
        const type = TYPES[p][Math.floor(rand() * TYPES[p].length)];
        const caseId = randomUUID();
        let t = at + logNormal(p === 1 ? 45 : 75, 0.5) * 1000; // call processing
        let closed: number;
        const rows: unknown[][] = [];
        const assign = (status: string, times: (number | null)[], cancelled: number | null) => {
          const a = plates[unit++ % plates.length];
          rows.push([caseId, a.id, a.license_plate, status, ...times.map(iso), iso(cancelled)]);
        };
        if (rand() < 0.05) {
          // The first ambulance is stood down on its way (a nearer one came free), a second is sent.
          const enRoute = t + logNormal(60, 0.4) * 1000;
          const cancelledAt = enRoute + logNormal(180, 0.6) * 1000;
          assign('cancelled', [t, enRoute, null, null, null, null, null], cancelledAt);
          t = cancelledAt + 5000;
          counts.resent++;
        }
        const dispatched = t;
        const skipEnRoute = rand() < 0.03;
        const enRoute = dispatched + logNormal(p <= 2 ? 50 : 90, 0.45) * 1000;
        if (skipEnRoute) counts.en_route_skipped++;
        if (rand() < 0.04) {
          // The call is cancelled before arrival (the caller rings back, another service attends).
          const cancelledAt = enRoute + logNormal(240, 0.7) * 1000;
          assign('cancelled', [dispatched, skipEnRoute ? null : enRoute, null, null, null, null, null], cancelledAt);
          closed = cancelledAt;
          counts.cancelled_calls++;
        } else {
          const onScene = enRoute + logNormal(TRAVEL_MEDIAN_S[p], 0.5) * 1000;
          const leaves = onScene + logNormal(p <= 2 ? 1200 : 900, 0.4) * 1000;
          if (rand() < 0.3) {
            // Treated on scene: no transport, back in service from the scene.
            assign('cleared', [dispatched, skipEnRoute ? null : enRoute, onScene, null, null, null, leaves], null);
            closed = leaves;
            counts.on_scene_only++;
          } else {
            const atHospital = leaves + logNormal(900, 0.45) * 1000;
            const handover = atHospital + Math.round(drawHandoverS(handoverRand)) * 1000;
            // A long handover holds the crew: it clears 5 min after it at the soonest.
            const cleared = Math.max(atHospital + logNormal(1500, 0.5) * 1000, handover + 300_000);
            assign('cleared', [dispatched, skipEnRoute ? null : enRoute, onScene, leaves, atHospital, handover, cleared], null);
            closed = cleared;
          }
        }
        insertCase.run(caseId, `Patient: Bench ${counts.calls}, Type: ${type}`, type, `Bench ${counts.calls}`, 'bench@example.com', iso(at), iso(closed), iso(closed), p, iso(at));
        let lastId = 0;
        for (const r of rows) lastId = Number(insertAssignment.run(...r).lastInsertRowid);
        assignments += rows.length;
        setLast.run(lastId, caseId);
        counts.calls++;
      }
    }
  });
  build();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { ...counts, assignments, ambulances: plates.length, from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}
