/**
 * Reports over a busy centre's year (issue 17): builds ≈500,000 assignments over the 365 days
 * before now on a fresh SQLite file (year.ts), starts a real server on it, and times over HTTP the JSON
 * reports (last 30 days, the whole year; several runs, the median) and the assignments CSV
 * (time to first byte and to the end, bytes, the server's peak RSS). Run by `npm run bench`
 * (scenario `reports`) or alone: `tsx scripts/bench/reports.ts [--assignments N] [--runs R]`.
 * Prints progress on stderr and one JSON line on stdout.
 */
import fs from 'node:fs';
import http from 'node:http';
import { DEMO_USERS } from '../../db/seeds/demo';
import { tasksetWorks } from '../../realtime-server/testing/spawnNode';
import { expectOk, request } from './http';
import { ProcMeter, rssMb } from './proc';
import { freshSqlite, startServer } from './server';
import { round } from './stats';
import { buildYear } from './year';

const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const TARGET_ASSIGNMENTS = Number(opt('assignments') ?? 500_000);
const RUNS = Number(opt('runs') ?? 5);
const DAY = 86_400_000;
const log = (...a: unknown[]) => console.error(`[reports ${new Date().toISOString().slice(11, 19)}]`, ...a);

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
  const year = await buildYear(file, end, TARGET_ASSIGNMENTS);
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
