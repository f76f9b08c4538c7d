/**
 * The report storm (issue 26): year reports and CSV exports asked for at once while an ambulance's
 * positions stream to its viewers. This file is the storm's side: the year (year.ts) with staff
 * accounts of its own, the clients asking for reports over the whole year (back to back, a refused
 * one again a second later, or left 150 ms after asking), the /api/config probe meanwhile, and the
 * cost of reports whose clients left. run.ts drives the positions (its fleet phase) around it.
 */
import http from 'node:http';
import { openDatabase } from '../../db/connection';
import { userRepository } from '../../db/repositories/userRepository';
import { expectOk, request } from './http';
import { cpuSeconds } from './proc';
import { type Summary, round, summarize } from './stats';
import { buildYear } from './year';

/** One load of the storm: `clients` asking at once, spread over `users` staff accounts; `abandonAfterMs`: each leaves that soon. */
export interface StormLevel { key: string; name: string; clients: number; users: number; abandonAfterMs?: number }

export const STORM_LEVELS: StormLevel[] = [
  { key: 'quiet', name: 'quiet', clients: 0, users: 0 },
  { key: '4', name: '4 at once', clients: 4, users: 4 },
  { key: '8', name: '8 at once', clients: 8, users: 8 },
  { key: '16', name: '16 at once', clients: 16, users: 8 },
  { key: '16one', name: '16 at once, one operator', clients: 16, users: 1 },
  { key: 'left', name: '8 at once, each left after 150 ms', clients: 8, users: 8, abandonAfterMs: 150 },
];
const STORM_USERS = Math.max(...STORM_LEVELS.map((l) => l.users));
/** The four heavy reads, a client taking them in turn (client i starts at the i-th). */
const KINDS = ['response-times', 'utilisation', 'demand', 'assignments.csv'] as const;
const RETRY_AFTER_REFUSAL_MS = 1000;
const PAUSE_AFTER_LEAVING_MS = 350;
const PROBE_EVERY_MS = 200;

const staff = (i: number) => ({ name: `Storm ${i}`, email: `storm${i}@lifeline.test`, phone: `55509${String(i).padStart(2, '0')}` });

/** The year, with the storm's staff accounts added (operators). */
export async function buildStormYear(file: string, end: number, assignments: number) {
  const year = await buildYear(file, end, assignments);
  const db = openDatabase(file);
  try {
    for (let i = 0; i < STORM_USERS; i++) await userRepository.insert(db, { ...staff(i), role: 'operator', shift: 1, gender: 0, location: 'Storm desk', address: null });
  } finally {
    await db.destroy();
  }
  return year;
}

/** A session for each of the storm's staff accounts. */
export async function stormTokens(base: string): Promise<string[]> {
  return Promise.all(Array.from({ length: STORM_USERS }, async (_, i) => {
    const u = staff(i);
    return (await expectOk(request<{ token: string }>(base, 'POST', '/api/auth/signin', { body: { email: u.email, username: u.name, phone: u.phone } }), `sign in ${u.email}`)).token;
  }));
}

type Outcome = { status: number; ms: number; bytes: number } | { status: 'left' | 'cut' | 'error'; ms: number; bytes: number };

/** One GET read to its end (the body counted, not kept), or left after `leaveAfterMs`, or cut by `stop`. */
function ask(base: string, path: string, token: string, leaveAfterMs: number | undefined, inflight: Set<http.ClientRequest>): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let bytes = 0;
    let done = false;
    let answered = false;
    const end = (o: Outcome) => {
      if (done) return;
      done = true;
      inflight.delete(req);
      clearTimeout(leave);
      resolve(o);
    };
    const req = http.get(base + path, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      answered = true;
      res.on('data', (d: Buffer) => { bytes += d.length; });
      res.on('end', () => end({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes }));
      res.on('error', () => end({ status: 'cut', ms: performance.now() - t0, bytes }));
      // Closed without its end (destroyed): cut.
      res.on('close', () => end({ status: 'cut', ms: performance.now() - t0, bytes }));
    });
    inflight.add(req);
    const leave = leaveAfterMs === undefined ? undefined : setTimeout(() => { end({ status: 'left', ms: performance.now() - t0, bytes }); req.destroy(); }, leaveAfterMs);
    req.on('error', () => end({ status: (req as { cutByStop?: boolean }).cutByStop ? 'cut' : 'error', ms: performance.now() - t0, bytes }));
    req.on('close', () => { if (!answered) end({ status: 'cut', ms: performance.now() - t0, bytes }); });
  });
}

export interface StormFigures {
  level: string; key: string; clients: number; users: number; abandon_after_ms: number | null;
  asked: number; ok: number; refused_503: number; refused_429: number; left: number; cut_at_end: number; other: Record<string, number>;
  ok_ms: Summary; config_probe_ms: Summary;
}

/** Starts `level`'s clients against the server; `stop()` ends them (requests in flight cut) and answers what happened. */
export function startStorm(base: string, tokens: string[], period: { from: string; to: string }, level: StormLevel) {
  const query = `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;
  const inflight = new Set<http.ClientRequest>();
  const outcomes: Outcome[] = [];
  const probe: number[] = [];
  let running = true;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const clients = Array.from({ length: level.clients }, async (_, i) => {
    const token = tokens[i % level.users];
    for (let k = i; running; k++) {
      const o = await ask(base, `/api/reports/${KINDS[k % KINDS.length]}?${query}`, token, level.abandonAfterMs, inflight);
      if (!running && o.status === 'cut') break;
      outcomes.push(o);
      if (o.status === 503 || o.status === 429) await sleep(RETRY_AFTER_REFUSAL_MS);
      else if (o.status === 'left') await sleep(PAUSE_AFTER_LEAVING_MS);
    }
  });
  // Everyone else's view of the server meanwhile: a request with no database work.
  const prober = (async () => {
    while (running) {
      const t0 = performance.now();
      const r = await request(base, 'GET', '/api/config');
      if (r.status === 200) probe.push(performance.now() - t0);
      await sleep(PROBE_EVERY_MS);
    }
  })();
  return {
    async stop(): Promise<StormFigures> {
      running = false;
      let cut = 0;
      for (const req of inflight) { (req as { cutByStop?: boolean }).cutByStop = true; req.destroy(); cut++; }
      await Promise.all([...clients, prober]);
      const count = (s: Outcome['status']) => outcomes.filter((o) => o.status === s).length;
      const other: Record<string, number> = {};
      for (const o of outcomes) if (![200, 503, 429, 'left'].includes(o.status)) other[String(o.status)] = (other[String(o.status)] ?? 0) + 1;
      return {
        level: level.name, key: level.key, clients: level.clients, users: level.users, abandon_after_ms: level.abandonAfterMs ?? null,
        asked: outcomes.length + cut, ok: count(200), refused_503: count(503), refused_429: count(429), left: count('left'), cut_at_end: cut, other,
        ok_ms: summarize(outcomes.filter((o) => o.status === 200).map((o) => o.ms)),
        config_probe_ms: summarize(probe),
      };
    },
  };
}

/**
 * The case: four year reports whose clients leave after 150 ms. Answers the server's CPU
 * seconds from the first request until `settleMs` after they left (before the fix: 26 s of CPU
 * for work nobody received).
 */
export async function abandonedCost(base: string, pid: number, tokens: string[], period: { from: string; to: string }, settleMs: number) {
  const query = `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;
  const cpu0 = cpuSeconds(pid) ?? 0;
  const outcomes = await Promise.all(KINDS.map((k, i) => ask(base, `/api/reports/${k}?${query}`, tokens[i % tokens.length], 150, new Set())));
  await new Promise((r) => setTimeout(r, settleMs));
  return { reports: outcomes.length, left: outcomes.filter((o) => o.status === 'left').length, settle_ms: settleMs, server_cpu_s: round((cpuSeconds(pid) ?? cpu0) - cpu0, 2) };
}
