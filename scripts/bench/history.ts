/**
 * The history scenario (issue 24, "Measured, not guessed"): a busy centre's year of calls
 * (scripts/bench/historyFixture.ts) under a real server, on SQLite and, when asked, on
 * PostgreSQL; then over HTTP, one request at a time as a staff screen asks:
 *
 * - board: bare GET /api/cases (the live board);
 * - first page: GET /api/cases?scope=all (history, newest first, 25 a page);
 * - page walk: every page from the first to page 1,000 by following next_cursor, each timed;
 * - page 1,000: that page's cursor asked again and again (a deep keyset page);
 * - searches: a patient's name, an 8-character id prefix, an address word, a plate (`q`).
 *
 * Each: p50/p95/max latency (request to last byte, gzip/br accepted as Chromium asks), the bytes
 * on the wire and decompressed, and the server's event-loop delay max while that group ran (the
 * server's own perf_hooks.monitorEventLoopDelay, read from GET /api/metrics, which prom-client
 * resets at every scrape: one scrape before a group and one after give that group's max).
 * Then live position fan-out to socket viewers (the fleet scenario's code, given by run.ts) on
 * that server, and on a server with an empty database in the same run: the ratio of their p99.
 */
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { DEMO_USERS } from '../../db/seeds/demo';
import type { ServerProcess } from '../../realtime-server/testing/serverProcess';
import { dropSchema } from '../../realtime-server/testing/testEngine';
import { freshSchemaUrl } from './cluster';
import { expectOk, request } from './http';
import { type HistoryYear, buildHistory } from './historyFixture';
import { freshSqlite, startServer } from './server';
import { type Summary, round, summarize } from './stats';

/** The issue's targets. */
export const HISTORY_TARGETS = { board_p95_ms: 100, board_kb: 256, page_p95_ms: 150, search_p95_ms: 300, event_loop_max_ms: 50, fanout_ratio: 1.2 };
/** What Chromium sends: the server picks brotli or gzip. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** A request slower than this, or an answer larger, is reported as failed, not waited for (today's board at a year is ~500 MB). */
const TIMEOUT_MS = 60_000;
const MAX_WIRE_BYTES = 64 * 2 ** 20;

export interface FanoutFigure { p50: number; p95: number; p99: number; max: number; n: number; lost: number }

export interface HistoryOptions {
  cases: number;
  /** Requests per measured group. */
  samples: number;
  /** The deep page followed by cursor (1,000). */
  deepPage: number;
  /** postgres:// URL (a fresh schema of it is used and dropped): PostgreSQL is measured too. */
  pgUrl?: string;
  cpus?: string;
  /** The fleet scenario's fan-out on this server: connects a fleet, drives it, answers the viewers' figures. */
  fanout?: (server: ServerProcess) => Promise<FanoutFigure>;
  log: (...a: unknown[]) => void;
}

interface Timed { status: number; ms: number; wire: number; raw: number; encoding: string; body?: unknown; error?: string }

/** One GET to its last byte as a browser asks (compressed), decompressed to count and parse it. */
function timedGet(base: string, path: string, token: string): Promise<Timed> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get(base + path, { headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      let wire = 0;
      res.on('data', (d: Buffer) => {
        wire += d.length;
        if (wire > MAX_WIRE_BYTES) { req.destroy(); resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, wire, raw: NaN, encoding: '', error: `over ${MAX_WIRE_BYTES >> 20} MB on the wire` }); return; }
        chunks.push(d);
      });
      res.on('end', () => {
        const ms = performance.now() - t0;
        const encoding = String(res.headers['content-encoding'] ?? 'identity');
        const buf = Buffer.concat(chunks);
        const raw = encoding === 'br' ? zlib.brotliDecompressSync(buf) : encoding === 'gzip' ? zlib.gunzipSync(buf) : buf;
        let body: unknown;
        try { body = JSON.parse(raw.toString('utf8')); } catch { body = undefined; }
        resolve({ status: res.statusCode ?? 0, ms, wire, raw: raw.length, encoding, body });
      });
      res.on('error', (e) => resolve({ status: 0, ms: performance.now() - t0, wire, raw: NaN, encoding: '', error: e.message }));
    });
    req.setTimeout(TIMEOUT_MS, () => { req.destroy(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)); });
    req.on('error', (e) => resolve({ status: 0, ms: performance.now() - t0, wire: 0, raw: NaN, encoding: '', error: e.message }));
  });
}

/** prom-client's monitorEventLoopDelay resolution (its default `eventLoopMonitoringPrecision`). */
const LOOP_RESOLUTION_MS = 10;

/**
 * The server's event-loop delay max (ms) since the previous scrape (prom-client resets its monitorEventLoopDelay
 * histogram each scrape). It first waits a few of the monitor's ticks: a group quicker than one tick holds no
 * sample (its max reads 0, not "no delay"), and a stall's late tick is recorded only after the stall ends.
 */
export async function eventLoopMaxMs(base: string, token: string): Promise<number> {
  await new Promise((r) => setTimeout(r, 3 * LOOP_RESOLUTION_MS));
  const r = await request<string>(base, 'GET', '/api/metrics', { token });
  const m = /^lifeline_nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? ([\d.e+-]+)$/m.exec(String(r.body));
  if (r.status !== 200 || !m) throw new Error(`GET /api/metrics: ${r.status}, no event-loop max in it`);
  return Number(m[1]) * 1000;
}

export interface Group {
  path: string; status: number; ok: boolean; error?: string; latency: Summary;
  wire_bytes: number; raw_bytes: number; encoding: string; event_loop_max_ms: number;
  rows?: number; total?: number; total_exact?: boolean; next_cursor?: boolean;
}

/** `samples` requests of one path, one after another, with the event loop's max over them. */
async function group(base: string, token: string, adminToken: string, path: string, samples: number, check?: (t: Timed) => string | undefined): Promise<Group> {
  await eventLoopMaxMs(base, adminToken);
  const each: Timed[] = [];
  let error: string | undefined;
  for (let i = 0; i < samples; i++) {
    const t = await timedGet(base, path, token);
    each.push(t);
    error = t.error ?? (t.status !== 200 ? `status ${t.status}` : check?.(t));
    // A failed request (today's code at a year: too large, too slow) is not asked for again.
    if (error) break;
  }
  const loop = await eventLoopMaxMs(base, adminToken);
  const first = each[0];
  const body = first.body as { cases?: unknown[]; total?: number; total_exact?: boolean; next_cursor?: string | null } | undefined;
  return {
    path, status: first.status, ok: !error, ...(error ? { error } : {}), latency: summarize(each.map((t) => t.ms)),
    wire_bytes: first.wire, raw_bytes: first.raw, encoding: first.encoding, event_loop_max_ms: round(loop, 1) ?? NaN,
    rows: body?.cases?.length, total: body?.total, total_exact: body?.total_exact, next_cursor: body?.next_cursor === undefined ? undefined : body.next_cursor !== null,
  };
}

type Page = { cases?: { id: string }[]; next_cursor?: string | null };
/** A history answer (not the whole list): it pages. */
const paged = (t: Timed) => ((t.body as Page | undefined)?.next_cursor === undefined ? 'no next_cursor: the server does not page history (GET /api/cases?scope=all)' : undefined);

/** From the first page, follows next_cursor to page `deep` (or the last): each page timed; answers the deep page's cursor. */
async function walk(base: string, token: string, adminToken: string, deep: number) {
  await eventLoopMaxMs(base, adminToken);
  const ms: number[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let cursor: string | null | undefined;
  let page = 0;
  let error: string | undefined;
  let deepCursor: string | undefined;
  while (page < deep) {
    const t = await timedGet(base, `/api/cases?scope=all${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    error = t.error ?? (t.status !== 200 ? `status ${t.status}` : paged(t));
    if (error) break;
    ms.push(t.ms);
    page++;
    const body = t.body as Page;
    for (const c of body.cases ?? []) {
      if (seen.has(c.id)) duplicates++;
      else seen.add(c.id);
    }
    // The cursor that fetched the last page reached: page `deep`, or the year's last page when it has fewer.
    deepCursor = cursor ?? undefined;
    if (!body.next_cursor) break;
    cursor = body.next_cursor;
  }
  const loop = await eventLoopMaxMs(base, adminToken);
  return { target: deep, pages: page, rows: seen.size, duplicates, latency: summarize(ms), event_loop_max_ms: round(loop, 1) ?? NaN, deepCursor, ...(error ? { error } : {}) };
}

export type EngineResult = Awaited<ReturnType<typeof measureEngine>>;

async function measureEngine(engine: 'sqlite' | 'postgres', o: HistoryOptions) {
  const fresh = () => (engine === 'sqlite' ? { url: freshSqlite(`history-${Date.now()}`), drop: async () => {} } : (() => { const { url } = freshSchemaUrl(o.pgUrl!); return { url, drop: () => dropSchema(url) }; })());
  // The empty database first: the same fan-out with no history.
  let emptyFanout: FanoutFigure | undefined;
  if (o.fanout) {
    const db = fresh();
    const server = await startServer({ databaseUrl: db.url, cpus: o.cpus });
    try {
      emptyFanout = await o.fanout(server);
      o.log(`history ${engine}: empty database, fan-out p50 ${emptyFanout.p50} p99 ${emptyFanout.p99} ms`);
    } finally {
      await server.stop();
      await db.drop();
    }
  }
  const db = fresh();
  try {
    const year: HistoryYear = await buildHistory(db.url, { cases: o.cases });
    o.log(`history ${engine}: ${year.cases} cases (${year.active} active, ${year.pending} pending), ${year.assignments} assignments, search_text ${year.search_text ? 'filled' : 'absent'}, built in ${year.build_seconds} s`);
    // SEED=none: the file has its accounts already, and no demo data is added on top of the year.
    const server = await startServer({ databaseUrl: db.url, seed: 'none', cpus: o.cpus });
    try {
      const base = server.base;
      const signin = async (u: (typeof DEMO_USERS)[number]) => (await expectOk(request<{ token: string }>(base, 'POST', '/api/auth/signin', { body: { email: u.email, username: u.name, phone: u.phone } }), `sign in ${u.email}`)).token;
      const admin = DEMO_USERS.find((u) => u.role === 'admin')!;
      const operator = DEMO_USERS.find((u) => u.role === 'operator')!;
      const [adminToken, token] = [await signin(admin), await signin(operator)];
      const S = o.samples;
      const q = (s: string) => `/api/cases?scope=all&q=${encodeURIComponent(s)}`;
      const board = await group(base, token, adminToken, '/api/cases', S, (t) => (Array.isArray((t.body as { cases?: unknown })?.cases) ? undefined : 'no cases array'));
      o.log(`history ${engine}: board p95 ${board.latency.p95} ms, ${board.raw_bytes} bytes (${board.wire_bytes} ${board.encoding})${board.error ? `, ${board.error}` : ''}`);
      const firstPage = await group(base, token, adminToken, '/api/cases?scope=all', S, paged);
      const walked = await walk(base, token, adminToken, o.deepPage);
      o.log(`history ${engine}: walked ${walked.pages} pages, p95 ${walked.latency.p95} ms${walked.error ? `, ${walked.error}` : ''}`);
      const deep = walked.pages > 1 && walked.deepCursor
        ? await group(base, token, adminToken, `/api/cases?scope=all&cursor=${encodeURIComponent(walked.deepCursor)}`, S, paged)
        : undefined;
      const found = (want: (c: { id: string; patient_name?: string }) => boolean) => (t: Timed) => {
        const p = t.body as { cases?: { id: string; patient_name?: string }[] } | undefined;
        return paged(t) ?? (p?.cases?.some(want) ? undefined : 'the searched call is not on the first page');
      };
      const { probes } = year;
      const searches = {
        name: await group(base, token, adminToken, q(probes.name), S, found((c) => c.patient_name === probes.name)),
        id_prefix: await group(base, token, adminToken, q(probes.idPrefix), S, found((c) => c.id.startsWith(probes.idPrefix))),
        address_word: await group(base, token, adminToken, q(probes.addressWord), S, paged),
        plate: await group(base, token, adminToken, q(probes.plate), S, paged),
      };
      for (const [k, g] of Object.entries(searches)) o.log(`history ${engine}: search ${k} p95 ${g.latency.p95} ms, total ${g.total}${g.total_exact === false ? '+' : ''}${g.error ? `, ${g.error}` : ''}`);
      const yearFanout = o.fanout ? await o.fanout(server) : undefined;
      if (yearFanout) o.log(`history ${engine}: the year, fan-out p50 ${yearFanout.p50} p99 ${yearFanout.p99} ms`);
      return { engine, year, board, first_page: firstPage, page_walk: { ...walked, deepCursor: undefined }, deep_page: deep, searches, fanout: { empty: emptyFanout, year: yearFanout } };
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
    // A year is a few hundred MB: not left behind under .tmp/bench.
    if (engine === 'sqlite') for (const suffix of ['', '-wal', '-shm']) fs.rmSync(db.url + suffix, { force: true });
  }
}

/** Target checks of one engine's figures: [name, figure, target, met]. */
export function historyChecks(r: EngineResult): [string, string, string, boolean][] {
  const T = HISTORY_TARGETS;
  const rows: [string, string, string, boolean][] = [];
  const p95 = (g: { latency: Summary; ok?: boolean; error?: string } | undefined, target: number, name: string) => {
    if (!g) return rows.push([name, 'not measured', `p95 ≤ ${target} ms`, false]);
    rows.push([name, g.error ? `failed: ${g.error}` : `p50 ${round(g.latency.p50, 0)} / p95 ${round(g.latency.p95, 0)} ms`, `p95 ≤ ${target} ms`, !g.error && g.latency.p95 <= target]);
  };
  p95(r.board, T.board_p95_ms, 'board: latency');
  rows.push(['board: bytes, raw JSON', `${round(r.board.raw_bytes / 1024, 1)} KB`, `≤ ${T.board_kb} KB`, !r.board.error && r.board.raw_bytes <= T.board_kb * 1024]);
  rows.push([`board: bytes on the wire (${r.board.encoding})`, `${round(r.board.wire_bytes / 1024, 1)} KB`, `≤ ${T.board_kb} KB`, !r.board.error && r.board.wire_bytes <= T.board_kb * 1024]);
  p95(r.first_page, T.page_p95_ms, 'history first page');
  // Page 1,000 is reached only with 25,000 calls or more: a smaller year's last page stands for it.
  const last = r.page_walk.pages || r.page_walk.target;
  p95(r.page_walk, T.page_p95_ms, `pages 1–${last} by cursor`);
  p95(r.deep_page, T.page_p95_ms, `page ${last} by cursor, again`);
  for (const [k, g] of Object.entries(r.searches)) p95(g, T.search_p95_ms, `search: ${k.replace('_', ' ')}`);
  const loops = [r.board, r.first_page, r.page_walk, r.deep_page, ...Object.values(r.searches)].filter((g) => g !== undefined).map((g) => g.event_loop_max_ms);
  const loop = Math.max(...loops);
  rows.push(['server event-loop delay max', `${round(loop, 0)} ms`, `≤ ${T.event_loop_max_ms} ms`, loop <= T.event_loop_max_ms]);
  const { empty, year } = r.fanout;
  if (empty && year) {
    const ratio = year.p99 / Math.max(1, empty.p99);
    rows.push(['fan-out p99: year / empty', `${year.p99} / ${empty.p99} ms = ${round(ratio, 2)}×`, `≤ ${T.fanout_ratio}×`, ratio <= T.fanout_ratio && year.lost === 0]);
  }
  return rows;
}

/** The scenario: SQLite, then PostgreSQL when `pgUrl` is given. */
export async function historyScenario(o: HistoryOptions) {
  const engines: ('sqlite' | 'postgres')[] = o.pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  const out: EngineResult[] = [];
  for (const e of engines) out.push(await measureEngine(e, o));
  return out.map((r) => ({ ...r, checks: historyChecks(r) }));
}
export type HistoryResult = Awaited<ReturnType<typeof historyScenario>>;
