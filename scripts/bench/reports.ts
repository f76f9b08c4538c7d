/**
 * Reports over a busy centre's year (issue 17): builds ≈500,000 assignments over the 365 days
 * before now on a fresh SQLite file, starts a real server on it, and times over HTTP the JSON
 * reports (last 30 days, the whole year; several runs, the median) and the assignments CSV
 * (time to first byte and to the end, bytes, the server's peak RSS). Run by `npm run bench`
 * (scenario `reports`) or alone: `tsx scripts/bench/reports.ts [--assignments N] [--runs R]`.
 * Prints progress on stderr and one JSON line on stdout.
 *
 * The year (seeded, so every run builds the same one): arrivals by hour of day (a night trough,
 * a late-morning and an evening peak); priorities 1–4 in 10/45/35/10 %; call processing, turnout,
 * travel, on scene, transport and hospital turnaround drawn from log-normals around typical
 * urban figures; 30 % treated on scene (no transport steps), 3 % with en route skipped, 4 % of
 * calls cancelled before arrival, 5 % with a first ambulance cancelled and a second sent; 20
 * ambulances taken in turn (the fleet's size, not a schedule: utilisation over 100 % is the model's,
 * not a report's error).
 */
import fs from 'node:fs';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { openDatabase } from '../../db/connection';
import { DEMO_AMBULANCES, DEMO_USERS, seedDemo } from '../../db/seeds/demo';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { tasksetWorks } from '../../realtime-server/testing/spawnNode';
import { expectOk, request } from './http';
import { ProcMeter, rssMb } from './proc';
import { freshSqlite, startServer } from './server';
import { round } from './stats';

const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const TARGET_ASSIGNMENTS = Number(opt('assignments') ?? 500_000);
const RUNS = Number(opt('runs') ?? 5);
const AMBULANCES = 20;
const DAY = 86_400_000;
const log = (...a: unknown[]) => console.error(`[reports ${new Date().toISOString().slice(11, 19)}]`, ...a);

// ---------- the year ----------
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
const rand = rng(17);
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

/** Builds the year into the SQLite file; answers what it holds. */
export async function buildYear(file: string, end: number) {
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
  const insertAssignment = db.prepare(`insert into assignments (case_id, ambulance_id, license_plate, status, dispatched_at, en_route_at, on_scene_at, transporting_at, at_hospital_at, cleared_at, cancelled_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const setLast = db.prepare('update cases set assignment_id = ? where id = ?');
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const start = end - 365 * DAY;
  // ≈1.05 assignments per call (the re-sent ones).
  const calls = Math.round(TARGET_ASSIGNMENTS / 1.05);
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
          assign('cancelled', [t, enRoute, null, null, null, null], cancelledAt);
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
          assign('cancelled', [dispatched, skipEnRoute ? null : enRoute, null, null, null, null], cancelledAt);
          closed = cancelledAt;
          counts.cancelled_calls++;
        } else {
          const onScene = enRoute + logNormal(TRAVEL_MEDIAN_S[p], 0.5) * 1000;
          const leaves = onScene + logNormal(p <= 2 ? 1200 : 900, 0.4) * 1000;
          if (rand() < 0.3) {
            // Treated on scene: no transport, back in service from the scene.
            assign('cleared', [dispatched, skipEnRoute ? null : enRoute, onScene, null, null, leaves], null);
            closed = leaves;
            counts.on_scene_only++;
          } else {
            const atHospital = leaves + logNormal(900, 0.45) * 1000;
            const cleared = atHospital + logNormal(1500, 0.5) * 1000;
            assign('cleared', [dispatched, skipEnRoute ? null : enRoute, onScene, leaves, atHospital, cleared], null);
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

// ---------- measuring ----------
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };

/** One GET read to its end: status, time to first byte and to the end (ms), bytes. */
function timedGet(base: string, path: string, token: string) {
  return new Promise<{ status: number; ttfbMs: number; ms: number; bytes: number; body: Buffer }>((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(base + path, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let ttfb = NaN;
      let bytes = 0;
      const keep: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        if (Number.isNaN(ttfb)) ttfb = performance.now() - t0;
        bytes += d.length;
        // JSON answers are kept (to read a figure back); a CSV only counted.
        if (!String(res.headers['content-type']).startsWith('text/csv')) keep.push(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ttfbMs: ttfb, ms: performance.now() - t0, bytes, body: Buffer.concat(keep) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * GET /api/config (no database, no work) every 50 ms until stopped: how long the server keeps
 * everyone else waiting while a report runs (its event loop held by synchronous reads).
 */
function probeResponsiveness(base: string, token: string) {
  const ms: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const r = await timedGet(base, '/api/config', token);
      if (r.status === 200) ms.push(r.ms);
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  return async () => {
    running = false;
    await done;
    return { probe_max_ms: round(Math.max(0, ...ms), 0), probe_median_ms: round(median(ms), 0), probes: ms.length };
  };
}

/** `runs` GETs of one path, one after another, with the server's CPU and peak RSS over them and how it answered meanwhile. */
async function measure(base: string, pid: number, path: string, token: string, runs: number) {
  const rssBefore = rssMb(pid) ?? 0;
  const meter = new ProcMeter(pid).start();
  const stopProbe = probeResponsiveness(base, token);
  const each = [];
  for (let i = 0; i < runs; i++) {
    const r = await timedGet(base, path, token);
    if (r.status !== 200) {
      meter.stop();
      await stopProbe();
      return { path, status: r.status, error: r.body.toString('utf8').slice(0, 200) };
    }
    each.push(r);
  }
  const probe = await stopProbe();
  const usage = meter.stop();
  const ms = each.map((r) => r.ms);
  let calls: number | undefined;
  try { calls = (JSON.parse(each[0].body.toString('utf8')) as { overall?: { calls?: number } }).overall?.calls; } catch { /* not JSON */ }
  return {
    path, status: 200, runs, median_ms: round(median(ms), 0), min_ms: round(Math.min(...ms), 0), max_ms: round(Math.max(...ms), 0),
    ttfb_median_ms: round(median(each.map((r) => r.ttfbMs)), 0), bytes: each[0].bytes, ...(calls === undefined ? {} : { calls }),
    // CPU the server spent per request: what the machine's other work cannot inflate (wall time can, on a shared machine).
    server_cpu_ms_per_run: round((usage.cpuSeconds * 1000) / runs, 0),
    server_rss_before_mb: round(rssBefore, 0), server_peak_rss_mb: round(usage.peakRssMb, 0),
    ...probe,
  };
}

async function main() {
  const file = freshSqlite('reports');
  const end = Date.now() - 3 * 3_600_000;
  const t0 = performance.now();
  const year = await buildYear(file, end);
  const buildSeconds = round((performance.now() - t0) / 1000, 1);
  log(`built ${year.assignments} assignments of ${year.calls} calls over 365 days, ${year.ambulances} ambulances, in ${buildSeconds} s`);

  // SEED=none: the file has its accounts already, and no other history is added on top of the year.
  const server = await startServer({ databaseUrl: file, seed: 'none', cpus: tasksetWorks() ? '0' : undefined });
  try {
    const base = server.base;
    const admin = DEMO_USERS[0];
    const token = (await expectOk(request<{ token: string }>(base, 'POST', '/api/auth/signin', { body: { email: admin.email, username: admin.name, phone: admin.phone } }), 'sign in')).token;
    const month = `from=${encodeURIComponent(new Date(end - 30 * DAY).toISOString())}&to=${encodeURIComponent(new Date(end).toISOString())}`;
    const whole = `from=${encodeURIComponent(year.from)}&to=${encodeURIComponent(year.to)}`;
    const results: Record<string, unknown> = {};
    for (const [name, path, runs] of [
      ['response_times_30d', `/api/reports/response-times?${month}`, RUNS],
      ['response_times_year', `/api/reports/response-times?${whole}`, RUNS],
      ['utilisation_30d', `/api/reports/utilisation?${month}`, RUNS],
      ['utilisation_year', `/api/reports/utilisation?${whole}`, RUNS],
      ['demand_30d', `/api/reports/demand?${month}`, RUNS],
      ['demand_year', `/api/reports/demand?${whole}`, RUNS],
      ['csv_30d', `/api/reports/assignments.csv?${month}`, RUNS],
      ['csv_year', `/api/reports/assignments.csv?${whole}`, Math.max(1, Math.ceil(RUNS / 2))],
    ] as const) {
      const r = await measure(base, server.pid!, path, token, runs);
      results[name] = r;
      log(`${name}: ${'median_ms' in r ? `median ${r.median_ms} ms (${r.min_ms}–${r.max_ms}), first byte ${r.ttfb_median_ms} ms, server CPU ${r.server_cpu_ms_per_run} ms/run, ${(r.bytes / 1e6).toFixed(1)} MB, server peak RSS ${r.server_peak_rss_mb} MB, /api/config meanwhile median ${r.probe_median_ms} ms, max ${r.probe_max_ms} ms` : `${r.status} ${r.error}`}`);
    }
    process.stdout.write(`${JSON.stringify({ year: { ...year, build_seconds: buildSeconds }, ...results })}\n`);
  } finally {
    await server.stop();
    // A year is a few hundred MB: not left behind under .tmp/bench.
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  }
}

// Imported (for a profile of one report) it builds nothing by itself.
if (!process.env.BENCH_NO_MAIN) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
