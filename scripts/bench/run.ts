/**
 * npm run bench [-- --quick] [--json FILE] [--repeat N] [--compare BASE_REF] [--client lite|socketio]
 *                [--scenarios fleet,dispatch,polling,ingest,baselines,reports,history]
 *                [--ambulances A] [--viewers V] [--staff S] [--rate R] [--duration SECONDS] [--load-procs N]
 *                [--nodes N [--database-url postgres://...] [--redis-url redis://...]]
 *                [--history-cases N] [--history-samples R] [--no-history-fanout] [--pg]
 *
 * Starts a real server process (fresh SQLite file, production settings) and separate
 * load-generator processes (socket.io-client and node:http), pinned to different cores when
 * taskset works, runs the scenarios and baselines, and prints a table (and writes JSON).
 * See BENCHMARKS.md.
 *
 * --repeat N: the whole run N times (default 3 for the full profile, 1 for --quick and --smoke), each
 *   in a child process; every headline figure is printed as its median (min–max). Sustained ingest
 *   is the highest offered rate whose ack p99 ≤ 50 ms held at it and every lower step, in every
 *   repetition (the lowest of the repetitions). Runs and a summary go to .tmp/bench/repeat-<time>/.
 * --compare BASE_REF: BASE_REF checked out in .tmp/bench/base-<sha> (git worktree, its own `npm ci`;
 *   kept for the next comparison), N repetitions of each commit interleaved A B B A A B …, this
 *   checkout's load and fixtures against each commit's server; each figure's ratio (head / base)
 *   and whether the ranges overlap: ranges apart and worse is a regression. The CPU per delivery
 *   and per stored position (at the reference rate: REST 1,000/s, socket 4,000/s) are the guard
 *   figures. reports and history are left out (their year is built with this checkout's schema).
 *   Any phase whose load generators use more than 70 % of their core is marked GENERATOR-BOUND.
 * --client socketio: viewers and staff boards on socket.io-client; by default they listen through
 *   liteSocket.ts (ws speaking the Socket.IO wire protocol, parsing only the events listened to, so
 *   the generator costs less per socket).
 * Profiles: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" for the server(s),
 *   BENCH_LOAD_NODE_ARGS the same for the load generators; read them with scripts/bench/profileTop.ts.
 *
 * --nodes N (N >= 1): N server processes on PostgreSQL + Redis, as docs/operations.md ("Several nodes") runs them: a fresh
 *   schema `lifeline_bench_<pid>_<ms>` of --database-url (default DATABASE_URL when postgres://,
 *   else postgres://postgres@127.0.0.1:5432/test) and a fresh REDIS_PREFIX on --redis-url (default
 *   REDIS_URL, else redis://127.0.0.1:6379); both removed at the end. The first node migrates and
 *   seeds, then the others start. Drivers, viewers and staff boards are spread over the nodes
 *   round-robin, each viewer offset from its driver's node so that positions cross nodes
 *   (with N >= 2 at least half the viewer deliveries are cross-node; counted separately). All
 *   nodes share CPU 0 and the load CPU 1 where taskset works. Only the fleet scenario (and
 *   dispatch and polling if asked, whose dispatchers and polls talk to the first node) runs on
 *   several nodes: ingest and the baselines stay single-node (SQLite) and are skipped here.
 *   --nodes 1 is the fair "one node" against N (same engine: PostgreSQL + Redis adapter).
 *
 * reports: a busy centre's year on SQLite (scripts/bench/reports.ts: 500,000 assignments; --quick 50,000,
 *   --smoke 5,000; --report-assignments N), then the reports and the CSV timed over HTTP against a
 *   server of its own, before the fleet's server starts. `--scenarios reports` runs only it.
 *
 * national (not in the default set; `--scenarios national` runs only it; scripts/bench/national.ts): a national
 *   day's shape (2,000 units every 5 s, 4,000 viewers, 50 staff boards, 8 dispatchers) on SQLite, one node on
 *   PostgreSQL + Redis and three nodes, in one invocation, the deployments rotated each round (--repeat N, default
 *   3; --duration S per phase, --database-url and --redis-url as for --nodes); each figure's median (min–max) per
 *   deployment, PostgreSQL against SQLite, and the calls a day the dispatchers' rate makes against 30,000.
 *
 * reportStorm (not in the default set; `--scenarios reportStorm` runs only it): the busy year (year.ts;
 *   --report-assignments N as for reports) under a server of its own, with 8 staff accounts of its own; one
 *   ambulance's driver streams positions at --rate Hz to its viewers (2 ambulances, 5 viewers each; a staff board
 *   or two) while year reports and CSV exports are asked for (scripts/bench/reportStorm.ts: 0, 4, 8, 16 clients at
 *   once over 8 staff, 16 from one operator, 8 that leave each request after 150 ms), one phase of --storm-seconds
 *   (default 20, --quick 8, --smoke 2) each: viewer latency p50/p99/max, server CPU and peak RSS, answers 200 / 503
 *   / 429, the slowest /api/config meanwhile; then four year reports left after 150 ms and the server's CPU over
 *   the next 3 s. --storm-levels quiet,4,8,16,16one,left runs only those levels.
 *
 * history (not in the default set; `--scenarios history` runs only it): a busy centre's year of calls
 *   (scripts/bench/historyFixture.ts: 400,000 cases; --quick 40,000, --smoke 2,000; --history-cases N)
 *   in a fresh database under a server of its own, then over HTTP (scripts/bench/history.ts): the
 *   board, history's first page, every page to page 1,000 by next_cursor and that page again, and
 *   searches for a name, an 8-character id prefix, an address word and a plate (--history-samples R
 *   requests each; default 30, --smoke 3): p50/p95, bytes raw and on the wire, the server's event-loop
 *   delay max (its /api/metrics); then the fleet's viewer fan-out on that server and on an empty one,
 *   and the targets met or not (--no-history-fanout: the lists only). On SQLite, and also on PostgreSQL (a fresh schema, dropped at the end)
 *   with --pg, --database-url or DATABASE_URL=postgres://. Its fan-out uses the quick profile's fleet
 *   (20 ambulances, 500 viewers, 8 s; --smoke's with --smoke) unless --ambulances, --viewers or
 *   --duration say otherwise. The results also go to .tmp/bench/history-<time>.json (git-ignored).
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Fixtures, buildFleet } from './fixtures';
import { request } from './http';
import type { Answers, Cmd } from './load';
import { ProcMeter, rssMb } from './proc';
import { type ClusterHandle, LOCAL_PG, LOCAL_REDIS, pidsNamed, startCluster } from './cluster';
import { freshSqlite, startServer } from './server';
import type { ServerProcess } from '../../realtime-server/testing/serverProcess';
import { ROOT, spawnNode, tasksetWorks } from '../../realtime-server/testing/spawnNode';
import { round, type Summary, summarize } from './stats';
import { type FanoutFigure, type HistoryResult, eventLoopMaxMs, historyScenario } from './history';
import { type StormFigures, STORM_LEVELS, abandonedCost, buildStormYear, startStorm, stormTokens } from './reportStorm';
import { sustainedRate } from './aggregate';
import { nationalMain } from './national';
import { repeatMain } from './repeat';

// ---------- options ----------
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const num = (name: string, dflt: number) => (opt(name) === undefined ? dflt : Number(opt(name)));
if (flag('help')) {
  console.log(fs.readFileSync(import.meta.filename, 'utf8').split('*/')[0]);
  process.exit(0);
}
const quick = flag('quick');
const smoke = flag('smoke');
const profile = smoke ? 'smoke' : quick ? 'quick' : 'full';
/** `--scenarios history` alone: its fan-out comparison needs no 10,000 viewers, the quick fleet's sizes serve. */
const historyOnly = opt('scenarios') === 'history';
const fleetQuick = quick || historyOnly;
const P = {
  ambulances: num('ambulances', smoke ? 4 : fleetQuick ? 20 : 200),
  viewers: num('viewers', smoke ? 20 : fleetQuick ? 500 : 10_000),
  staff: num('staff', smoke ? 4 : fleetQuick ? 20 : 500),
  rate: num('rate', 1),
  duration: num('duration', smoke ? 3 : fleetQuick ? 8 : 30) * 1000,
  loadProcs: num('load-procs', smoke ? 1 : fleetQuick ? 1 : 3),
  dispatchers: num('dispatchers', smoke ? 1 : quick ? 2 : 4),
  /** The tracking page's poll (SPEC: 5 s); the smoke run polls faster to see a few polls at all. */
  pollInterval: num('poll-interval', smoke ? 1000 : 5000),
  ingestStep: (smoke ? 1.5 : quick ? 2 : 4) * 1000,
  socketRates: smoke ? [100] : quick ? [250, 1000, 2500, 5000, 7500] : [250, 500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 10000, 12000],
  restRates: smoke ? [100] : quick ? [250, 500, 1000, 2000, 3000] : [250, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000],
  /** The ingest steps whose CPU per stored position is the guard figure (a rate every run offers). */
  referenceRates: smoke ? { rest: 100, socket: 100 } : quick ? { rest: 1000, socket: 1000 } : { rest: 1000, socket: 4000 },
};
/** --nodes N: N servers on PostgreSQL + Redis (undefined: the single SQLite server). */
const nodes = opt('nodes') === undefined ? undefined : Number(opt('nodes'));
if (nodes !== undefined && !(Number.isInteger(nodes) && nodes >= 1)) {
  console.error(`--nodes wants an integer >= 1, not ${opt('nodes')}`);
  process.exit(2);
}
const envPg = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;
const databaseUrl = opt('database-url') ?? envPg ?? LOCAL_PG;
const redisUrl = opt('redis-url') ?? process.env.REDIS_URL ?? LOCAL_REDIS;
const scenarios = new Set((opt('scenarios') ?? (nodes ? 'fleet' : 'fleet,dispatch,polling,ingest,baselines,reports')).split(','));
const skippedForNodes = nodes ? ['ingest', 'baselines', 'reports', 'history', 'reportStorm'].filter((k) => scenarios.delete(k)) : [];
const jsonFile = opt('json');
/** --repeat N (default 3 for the full profile, else 1) and --compare BASE_REF: repeat.ts runs this script N times per commit. */
const repeat = num('repeat', profile === 'full' ? 3 : 1);
const compareRef = opt('compare');
/** --client socketio: viewers and staff boards on socket.io-client instead of the lite listener (liteSocket.ts). */
const listenerClient = opt('client') === 'socketio' ? 'socketio' : 'lite';
if (!(Number.isInteger(repeat) && repeat >= 1)) {
  console.error(`--repeat wants an integer >= 1, not ${opt('repeat')}`);
  process.exit(2);
}
/** The history scenario's PostgreSQL: asked for by --pg, --database-url or a postgres:// DATABASE_URL. */
const historyPg = flag('pg') || opt('database-url') !== undefined || envPg !== undefined ? databaseUrl : undefined;
/** Another checkout (e.g. a `git worktree` of the commit before an optimisation): its server runs the ingest scenario too, in the same run. */
const beforeRoot = opt('before-root') && path.resolve(opt('before-root')!);
const SERVER_CPU = '0';
const LOAD_CPUS = os.cpus().length >= 2 ? '1' : undefined;

const log = (...a: unknown[]) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------- load processes ----------
class LoadProc {
  private child: ChildProcess;
  private seq = 0;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  constructor(cpus?: string) {
    // BENCH_LOAD_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the generators as BENCH_SERVER_NODE_ARGS does the server.
    this.child = spawnNode(path.join(ROOT, 'scripts/bench/load.ts'), [], { cpus, ipc: true, nodeArgs: process.env.BENCH_LOAD_NODE_ARGS?.split(' ').filter(Boolean) });
    this.child.stderr!.on('data', (d) => process.stderr.write(`[load ${this.child.pid}] ${d}`));
    this.child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`load process exited (${code})`));
      this.waiting.clear();
    });
  }
  get pid() { return this.child.pid!; }
  call<C extends Cmd>(c: C): Promise<Answers[C['cmd']]> {
    const id = this.seq++;
    // load.ts answers command `c.cmd` with `Answers[c.cmd]` (IPC carries it untyped).
    return new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, c });
    }) as Promise<Answers[C['cmd']]>;
  }
  async close() {
    await this.call({ cmd: 'close' }).catch(() => {});
    if (this.child.exitCode === null) await new Promise((r) => { this.child.once('exit', r); setTimeout(r, 3000); });
  }
}
const spawnLoad = (n: number) => Array.from({ length: n }, () => new LoadProc(LOAD_CPUS));

// ---------- fleet (+ dispatch, + polling baseline) ----------
type FleetResult = Awaited<ReturnType<typeof fleetPhase>>;

/** Where the fleet's clients are: viewers per ambulance, and per ambulance and node; each driver's node. */
interface Placement { viewersOn: Map<number, number>; viewersOnNode: Map<string, number>; driverNode: Map<number, number>; nodes: number }

/**
 * Viewers spread evenly over the ambulances; staff boards and viewers spread over the load processes.
 * With several nodes (`urls`), drivers, viewers and staff boards are spread round-robin over them:
 * driver k on node k mod N, staff board j on node j mod N, and the ambulance's viewers on the nodes
 * after its driver's, in turn, so that its first viewer is always on another node.
 */
async function connectFleet(urls: string[], fx: Fixtures, procs: LoadProc[], kind: 'lifeline' | 'sio' | 'ws' = 'lifeline') {
  const N = urls.length;
  const A = fx.fleet.length;
  const viewersOn = new Map<number, number>();
  const viewersOnNode = new Map<string, number>();
  const driverNode = new Map(fx.fleet.map((a, k) => [a.id, k % N]));
  const perProc: { ambId: number; token: string; node: number }[][] = procs.map(() => []);
  for (let i = 0; i < P.viewers; i++) {
    const a = fx.fleet[i % A];
    const node = (i % A + 1 + Math.floor(i / A)) % N;
    viewersOn.set(a.id, (viewersOn.get(a.id) ?? 0) + 1);
    viewersOnNode.set(`${a.id}:${node}`, (viewersOnNode.get(`${a.id}:${node}`) ?? 0) + 1);
    perProc[i % procs.length].push({ ambId: a.id, token: a.viewerToken, node });
  }
  const staffNodes: number[][] = procs.map(() => []);
  for (let j = 0; j < P.staff; j++) staffNodes[j % procs.length].push(j % N);
  const t0 = Date.now();
  // Drivers live in the first process (with the pollers and dispatchers); viewers and staff everywhere.
  const res = await Promise.all(procs.map((p, i) => p.call({
    cmd: 'connect', url: urls[0], urls, kind, width: 100, client: listenerClient,
    drivers: i === 0 ? fx.fleet.map((a, k) => ({ ambId: a.id, token: a.driverToken, node: k % N })) : [],
    viewers: perProc[i],
    staff: { count: staffNodes[i].length, token: fx.operatorToken, nodes: staffNodes[i] },
  })));
  const connected = res.reduce((s, r) => s + r.connected, 0);
  const failed = res.reduce((s, r) => s + r.failed, 0);
  log(`${kind}: ${connected} sockets connected (${failed} failed) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (failed > 0) throw new Error(`${failed} sockets could not connect`);
  const placement: Placement = { viewersOn, viewersOnNode, driverNode, nodes: N };
  return { placement, connectSeconds: (Date.now() - t0) / 1000 };
}

/** Several processes measured as one: CPU and RSS summed (the peak RSS is the sum of each one's peak), wall time the longest. */
function meterAll(pids: number[]) {
  const meters = pids.map((pid) => new ProcMeter(pid).start());
  return {
    stop() {
      const each = meters.map((m) => m.stop());
      const sum = (k: keyof (typeof each)[0]) => each.reduce((s, u) => s + u[k], 0);
      return { cpuSeconds: sum('cpuSeconds'), wallSeconds: Math.max(...each.map((u) => u.wallSeconds)), cpuPct: sum('cpuPct'), rssMb: sum('rssMb'), peakRssMb: sum('peakRssMb'), ...(each.length > 1 ? { per_node: each } : {}) };
    },
  };
}

async function fleetPhase(label: string, server: { url: string; pids: number[] }, fx: Fixtures, procs: LoadProc[], placement: Placement, extra: { dispatch?: boolean; poll?: boolean } = {}) {
  const { viewersOn, viewersOnNode, driverNode } = placement;
  const since = Date.now() + 200;
  await Promise.all(procs.map((p) => p.call({ cmd: 'reset', since })));
  await sleep(250);
  const meter = meterAll(server.pids);
  // With --nodes: what PostgreSQL and Redis spent meanwhile (every process of theirs on the machine, so other users' work too).
  const backing = nodes ? meterAll(pidsNamed(['postgres', 'redis-server'])) : undefined;
  const loadMeters = procs.map((p) => new ProcMeter(p.pid).start());
  const driverProc = procs[0];
  const pollTargets = fx.fleet.slice(0, Math.min(fx.fleet.length, 200)).map((a) => ({ ambId: a.id, token: a.viewerToken }));
  const [drive, polled, dispatched, fleetPoll] = await Promise.all([
    driverProc.call({ cmd: 'drive', rateHz: P.rate, durationMs: P.duration }),
    extra.poll && fx.fleet[0].viewerToken ? driverProc.call({ cmd: 'poll', url: server.url, targets: pollTargets, intervalMs: P.pollInterval, durationMs: P.duration }) : undefined,
    extra.dispatch ? procs[procs.length - 1].call({ cmd: 'dispatch', url: server.url, token: fx.operatorToken, dispatchers: P.dispatchers, durationMs: P.duration }) : undefined,
    extra.poll ? probeFleetPolling(server.url, fx.operatorToken, P.duration) : undefined,
  ]);
  await sleep(1500); // deliveries in flight, and the staff room's one-second tick
  const usage = meter.stop();
  const backingUsage = backing?.stop();
  const loadCpuPct = loadMeters.reduce((sum, m) => sum + m.stop().cpuPct, 0);
  const reports = await Promise.all(procs.map((p) => p.call({ cmd: 'report' })));
  const viewerLat = reports.flatMap((r) => r.viewerLat);
  const staffLat = reports.flatMap((r) => r.staffLat);
  const caseLat = reports.flatMap((r) => r.caseLat);
  const received = new Map<number, number>();
  for (const r of reports) for (const [k, v] of Object.entries(r.received)) received.set(Number(k), (received.get(Number(k)) ?? 0) + v);
  let expected = 0, lost = 0;
  for (const [amb, list] of Object.entries(drive.acked)) {
    const want = list.length * (viewersOn.get(Number(amb)) ?? 0);
    expected += want;
    lost += Math.max(0, want - (received.get(Number(amb)) ?? 0));
  }
  // Deliveries to viewers on another node than the driver's (the Redis positions channel's work).
  const byNode = new Map<string, number>();
  for (const r of reports) for (const [k, v] of Object.entries(r.receivedByNode)) byNode.set(k, (byNode.get(k) ?? 0) + v);
  let crossExpected = 0, crossReceived = 0, crossLost = 0;
  for (const [amb, list] of Object.entries(drive.acked)) {
    for (let n = 0; n < placement.nodes; n++) {
      if (n === driverNode.get(Number(amb))) continue;
      const want = list.length * (viewersOnNode.get(`${amb}:${n}`) ?? 0);
      const got = byNode.get(`${amb}:${n}`) ?? 0;
      crossExpected += want;
      crossReceived += got;
      crossLost += Math.max(0, want - got);
    }
  }
  const viewerMessages = reports.reduce((s, r) => s + r.viewerMessages, 0);
  const staffMessages = reports.reduce((s, r) => s + r.staffMessages, 0);
  const seconds = P.duration / 1000;
  const deliveries = viewerMessages + staffMessages;
  const out = {
    label,
    positions_sent: drive.sent, positions_acked: drive.ok + drive.notLatest, position_failures: drive.failed, position_errors: drive.errors,
    positions_per_s: (drive.ok + drive.notLatest) / seconds,
    ack: summarize(drive.ackLat),
    viewer_fanout: summarize(viewerLat),
    staff_fanout: summarize(staffLat),
    expected_viewer_deliveries: expected,
    lost, out_of_order: reports.reduce((s, r) => s + r.outOfOrder, 0), duplicates: reports.reduce((s, r) => s + r.duplicates, 0),
    disconnects: reports.reduce((s, r) => s + r.disconnects, 0),
    nodes: placement.nodes,
    viewers_held: reports.reduce((s, r) => s + r.viewersHeld, 0),
    cross_node: { expected: crossExpected, received: crossReceived, lost: crossLost },
    viewer_messages: viewerMessages, staff_messages: staffMessages, staff_positions: reports.reduce((s, r) => s + r.staffPositions, 0),
    deliveries_per_s: deliveries / usage.wallSeconds,
    server: usage,
    server_cpu_ms_per_delivery: (usage.cpuSeconds * 1000) / Math.max(1, deliveries),
    load_rss_mb: reports.map((r) => Math.round(r.rssMb)),
    load_cpu_pct: loadCpuPct,
    ...(backingUsage ? { postgres_redis: { cpuPct: backingUsage.cpuPct, cpuSeconds: backingUsage.cpuSeconds } } : {}),
  };
  return {
    ...out,
    ...(dispatched ? { dispatch: { ...dispatched, lat: undefined, request: summarize(dispatched.lat), case_to_staff: summarize(caseLat), staff_deliveries: caseLat.length } } : {}),
    // The fleet screen's polls are probed whenever the tracking page's are.
    ...(polled && fleetPoll ? { polling: pollStaleness(polled, drive.acked, fleetPoll) } : {}),
  };
}

/** Staleness of the specification's 5 s tracking poll, measured like push: ingest (send) to the first poll that shows it or newer. */
function pollStaleness(polled: Answers['poll'], acked: Record<string, number[]>, fleetPoll: FleetPolling) {
  const byAmb = new Map<number, { at: number; updatedMs: number }[]>();
  for (const s of polled.seen) (byAmb.get(s.ambId) ?? byAmb.set(s.ambId, []).get(s.ambId)!).push(s);
  const lat: number[] = [];
  // A position sent less than one interval before polling ended may not have met its poll yet: left out.
  const lastUseful = polled.end - P.pollInterval;
  for (const [amb, polls] of byAmb) {
    polls.sort((a, b) => a.at - b.at);
    for (const ts of acked[String(amb)] ?? []) {
      if (ts > lastUseful) continue;
      const first = polls.find((p) => p.at >= ts && p.updatedMs >= ts);
      if (first) lat.push(first.at - ts);
    }
  }
  return { interval_ms: P.pollInterval, staleness: summarize(lat), request: summarize(polled.reqLat), polls: polled.seen.length, fleet: fleetPoll };
}

/**
 * The fleet screen's polls (ambulances every 60 s, cases every 30 s) are too slow to observe in
 * a short run: their response times are measured under the load and the staleness is derived
 * (a change waits half an interval on average, plus the response).
 */
type FleetPolling = Awaited<ReturnType<typeof probeFleetPolling>>;
async function probeFleetPolling(url: string, token: string, durationMs: number) {
  const amb: number[] = [], cases: number[] = [];
  const end = Date.now() + durationMs;
  while (Date.now() < end) {
    for (const [list, p] of [[amb, '/api/ambulances'], [cases, '/api/cases']] as const) {
      const t0 = performance.now();
      await request(url, 'GET', p, { token });
      list.push(performance.now() - t0);
    }
    await sleep(1000);
  }
  const a = summarize(amb), c = summarize(cases);
  return {
    ambulances_request: a, cases_request: c,
    derived_staleness_p50_ms: { ambulances_60s: 30_000 + a.p50, cases_30s: 15_000 + c.p50 },
    derived_staleness_p99_ms: { ambulances_60s: 59_400 + a.p99, cases_30s: 29_700 + c.p99 },
  };
}

// ---------- ingest ----------
/** What the ingest scenario needs of a server: its URL, its process (for its CPU) and its output (its `position-writes` lines). */
type IngestTarget = Pick<ServerProcess, 'base' | 'pid' | 'output'>;

/** The position writer's cumulative counters, from the last `position-writes` line on the server's stderr (none: rows per transaction n/a). */
function writeStats(server: IngestTarget): { transactions: number; rows: number } | undefined {
  const lines = server.output.filter((l) => l.startsWith('position-writes '));
  const last = lines.at(-1);
  return last ? JSON.parse(last.slice('position-writes '.length)) as { transactions: number; rows: number } : undefined;
}

/** One offered rate of the ingest scenario. */
interface IngestStep {
  offered_per_s: number; stored_per_s: number; ok: number; failed: number; skipped: number; errors: Record<string, number>; ack: Summary;
  send_seconds: number; drain_seconds: number; server_cpu_pct: number; load_cpu_pct: number;
  server_cpu_us_per_position: number | null; rows_per_transaction: number | null; transactions: number | null; sustained: boolean;
}
type IngestResult = Awaited<ReturnType<typeof ingestScenario>>;

/** `kind: 'sio'`: the drivers name their ambulance in the handshake (the ingest floor) rather than by their link's token. */
async function ingestScenario(server: IngestTarget, fx: Fixtures, kind: 'lifeline' | 'sio' = 'lifeline') {
  const results: Record<'socket' | 'rest', IngestStep[]> = { socket: [], rest: [] };
  const procs = spawnLoad(smoke ? 1 : 2);
  // Drivers split over the processes; the REST load posts as the drivers' devices do (`?t=` driver link): staff
  // positions are refused for an ambulance whose crew reports itself, as the fleet's drivers just did.
  const halves = procs.map((_, i) => fx.fleet.filter((_a, j) => j % procs.length === i));
  await Promise.all(procs.map((p, i) => p.call({ cmd: 'connect', url: server.base, kind, width: 50, viewers: [], staff: { count: 0, token: '' }, drivers: halves[i].map((a) => ({ ambId: a.id, token: a.driverToken })) })));
  for (const pathKind of ['socket', 'rest'] as const) {
    let misses = 0;
    for (const rate of pathKind === 'socket' ? P.socketRates : P.restRates) {
      const before = writeStats(server);
      const meter = new ProcMeter(server.pid!).start();
      const loadMeters = procs.map((p) => new ProcMeter(p.pid).start());
      const rs = await Promise.all(procs.map((p, i) => p.call({
        cmd: 'ingest', path: pathKind, url: server.base, links: halves[i].map((a) => ({ id: a.id, driverToken: a.driverToken })), rate: rate / procs.length, durationMs: P.ingestStep,
      })));
      const usage = meter.stop();
      const loadCpuPct = loadMeters.reduce((sum, m) => sum + m.stop().cpuPct, 0);
      await sleep(700); // the writer reports its counters every 500 ms
      const after = writeStats(server);
      const lat = summarize(rs.flatMap((r) => r.lat));
      const ok = rs.reduce((s, r) => s + r.ok, 0);
      const sendSeconds = Math.max(...rs.map((r) => r.sendSeconds));
      const drainSeconds = Math.max(...rs.map((r) => r.drainSeconds));
      const stored = ok / drainSeconds;
      const errors: Record<string, number> = {};
      for (const r of rs) for (const [k, v] of Object.entries(r.errors)) errors[k] = (errors[k] ?? 0) + v;
      const tx = after && before ? after.transactions - before.transactions : after?.transactions;
      const rows = after && before ? after.rows - before.rows : after?.rows;
      const step: IngestStep = {
        offered_per_s: rate, stored_per_s: stored, ok, failed: rs.reduce((s, r) => s + r.failed, 0), skipped: rs.reduce((s, r) => s + r.skipped, 0),
        errors, ack: lat, send_seconds: sendSeconds, drain_seconds: drainSeconds, server_cpu_pct: usage.cpuPct, load_cpu_pct: loadCpuPct,
        // Server CPU per stored position: what one core could store if the load generator kept up.
        server_cpu_us_per_position: ok ? (usage.cpuSeconds * 1e6) / ok : null,
        rows_per_transaction: tx ? (rows ?? 0) / tx : null, transactions: tx ?? null,
        sustained: stored >= 0.95 * rate && lat.p99 <= 50 && ok > 0 && rs.every((r) => r.failed === 0),
      };
      results[pathKind].push(step);
      log(`ingest ${pathKind} ${rate}/s: stored ${stored.toFixed(0)}/s, ack p50 ${lat.p50} p99 ${lat.p99} ms, rows/tx ${step.rows_per_transaction?.toFixed(1) ?? 'n/a'}, cpu ${usage.cpuPct.toFixed(0)}% (load ${loadCpuPct.toFixed(0)}%)${step.failed ? `, ${step.failed} failed ${JSON.stringify(errors)}` : ''}`);
      // Two misses end the ladder, but never below the reference rate: its CPU per stored position is the guard figure every run must have.
      if (!step.sustained && ++misses >= 2 && rate >= P.referenceRates[pathKind]) break;
      await sleep(500);
    }
  }
  await Promise.all(procs.map((p) => p.close()));
  // Sustained: the highest step that held with every lower step holding too (aggregate.ts' sustainedRate).
  const best = (k: 'socket' | 'rest') => results[k].find((s) => s.offered_per_s === sustainedRate(results[k]) && s.sustained);
  return { steps: results, socket_sustained: best('socket'), rest_sustained: best('rest') };
}

// ---------- baselines ----------
/** The port a floor prints as `{"port":N}` on its stdout once it listens. */
function listeningPort(child: ReturnType<typeof spawnNode>, name: string) {
  return new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => { buf += d.toString(); const m = /"port":(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    child.once('exit', (c) => reject(new Error(`${name} exited ${c}`)));
  });
}

async function floorRun(mode: 'ws' | 'sio', fx: Fixtures) {
  const child = spawnNode(path.join(ROOT, 'scripts/bench/floor.ts'), ['--mode', mode], { cpus: SERVER_CPU });
  const port = await listeningPort(child, 'floor');
  const url = `http://127.0.0.1:${port}`;
  const procs = spawnLoad(P.loadProcs);
  try {
    const { placement } = await connectFleet([url], fx, procs, mode);
    const r = await fleetPhase(`${mode} floor`, { url, pids: [child.pid!] }, fx, procs, placement);
    return r;
  } finally {
    await Promise.all(procs.map((p) => p.close()));
    child.kill('SIGTERM');
  }
}

/**
 * Lifeline's ingest ladder against scripts/bench/ingestFloor.ts: the same load and the same fixtures
 * (the floor takes the ambulance from the URL or the socket's handshake and ignores the tokens),
 * on the server's CPU.
 */
async function ingestFloorRun(fx: Fixtures) {
  const child = spawnNode(path.join(ROOT, 'scripts/bench/ingestFloor.ts'), [], { cpus: SERVER_CPU });
  const output: string[] = [];
  child.stderr!.on('data', (d: Buffer) => {
    const lines = d.toString('utf8').split('\n').filter(Boolean);
    output.push(...lines);
    for (const l of lines) if (!l.startsWith('position-writes ')) log(`[ingest floor] ${l}`);
    if (output.length > 2000) output.splice(0, output.length - 2000);
  });
  const port = await listeningPort(child, 'ingest floor');
  try {
    return await ingestScenario({ base: `http://127.0.0.1:${port}`, pid: child.pid, output }, fx, 'sio');
  } finally {
    child.kill('SIGTERM');
  }
}

async function dbWriteBaseline() {
  const child = spawnNode(path.join(ROOT, 'scripts/bench/dbWrite.ts'), ['--n', smoke ? '200' : quick ? '1000' : '3000'], { cpus: SERVER_CPU });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`dbWrite failed: ${err}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as { label: string; usPerPosition: number; perSecond: number }[];
}

// ---------- reports ----------
type ReportFigure = {
  status: number; median_ms?: number; ttfb_median_ms?: number; server_cpu_ms_per_run?: number; bytes?: number; server_peak_rss_mb?: number;
  /** GET /api/config answered meanwhile: its slowest answer (the event loop held by the report). */
  probe_max_ms?: number; error?: string;
};
type ReportsResult = { year: { calls: number; assignments: number; build_seconds: number } } & Record<string, ReportFigure>;

/** A busy centre's year, built and measured by a child of its own (scripts/bench/reports.ts). */
async function reportsBench(): Promise<ReportsResult> {
  const assignments = opt('report-assignments') ?? (smoke ? '5000' : quick ? '50000' : '500000');
  const child = spawnNode(path.join(ROOT, 'scripts/bench/reports.ts'), ['--assignments', assignments, '--runs', smoke ? '1' : quick ? '3' : '5'], { cpus: LOAD_CPUS });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`reports bench failed (exit ${code})`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as ReportsResult;
}

// ---------- report storm ----------
type StormPhase = { storm: StormFigures; viewer_fanout: Summary; lost: number; event_loop_max_ms: number; server: { cpuPct: number; cpuSeconds: number; peakRssMb: number; rssMb: number } };
type ReportStormResult = {
  year: { calls: number; assignments: number; build_seconds: number }; phase_seconds: number; viewers: number; server_rss_start_mb: number;
  phases: StormPhase[]; abandoned: Awaited<ReturnType<typeof abandonedCost>>;
};

/** The busy year under a server of its own; positions streamed to viewers through each storm level (scripts/bench/reportStorm.ts). */
async function reportStormBench(cpus: string | undefined): Promise<ReportStormResult> {
  const assignments = Number(opt('report-assignments') ?? (smoke ? 5000 : quick ? 50_000 : 500_000));
  const phaseMs = num('storm-seconds', smoke ? 2 : quick ? 8 : 20) * 1000;
  const file = freshSqlite('storm');
  const t0 = performance.now();
  const year = await buildStormYear(file, Date.now() - 3 * 3_600_000, assignments);
  const buildSeconds = round((performance.now() - t0) / 1000, 1)!;
  log(`reportStorm: built ${year.assignments} assignments of ${year.calls} calls in ${buildSeconds} s`);
  const server = await startServer({ databaseUrl: file, seed: 'none', cpus });
  // The fleet phase's sizes for this scenario: a couple of ambulances and their viewers (restored after).
  const saved = { ...P };
  Object.assign(P, { viewers: smoke ? 4 : 10, staff: 2, duration: phaseMs });
  const procs = spawnLoad(1);
  try {
    const fx = await buildFleet(server.base, 2);
    const tokens = await stormTokens(server.base);
    const { placement } = await connectFleet([server.base], fx, procs);
    const rssStart = rssMb(server.pid!) ?? 0;
    const phases: StormPhase[] = [];
    const keys = opt('storm-levels')?.split(',');
    for (const level of STORM_LEVELS.filter((l) => !keys || keys.includes(l.key))) {
      // Read (and so reset) the server's event-loop delay max before the level: then its max over the level.
      await eventLoopMaxMs(server.base, fx.adminToken);
      const storm = startStorm(server.base, tokens, year, level);
      const f = await fleetPhase(`reportStorm ${level.name}`, { url: server.base, pids: [server.pid!] }, fx, procs, placement);
      const loopMax = round(await eventLoopMaxMs(server.base, fx.adminToken), 0)!;
      const figures = await storm.stop();
      phases.push({ storm: figures, viewer_fanout: f.viewer_fanout, lost: f.lost, event_loop_max_ms: loopMax, server: f.server });
      log(`reportStorm ${level.name}: positions to viewers p50 ${f.viewer_fanout.p50} p99 ${f.viewer_fanout.p99} max ${f.viewer_fanout.max} ms (${f.viewer_fanout.n}, lost ${f.lost}); server event-loop delay max ${loopMax} ms; server CPU ${round(f.server.cpuPct, 0)} %, peak RSS ${round(f.server.peakRssMb, 0)} MB; reports ${figures.ok} ok, ${figures.refused_503}×503, ${figures.refused_429}×429, ${figures.left} left, ${figures.cut_at_end} cut at the end; /api/config max ${round(figures.config_probe_ms.max, 0)} ms`);
      // The next level starts on a server that has finished this one's work.
      await sleep(1000);
    }
    const abandoned = await abandonedCost(server.base, server.pid!, tokens, year, 3000);
    log(`reportStorm: four year reports left after 150 ms cost the server ${abandoned.server_cpu_s} CPU-seconds (until 3 s after)`);
    return { year: { calls: year.calls, assignments: year.assignments, build_seconds: buildSeconds }, phase_seconds: phaseMs / 1000, viewers: P.viewers, server_rss_start_mb: round(rssStart, 0)!, phases, abandoned };
  } finally {
    await Promise.all(procs.map((p) => p.close()));
    Object.assign(P, saved);
    await server.stop();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  }
}

// ---------- history ----------
/** A busy centre's year under a server of its own (scripts/bench/history.ts), with the fleet's fan-out on it and on an empty one. */
async function historyBench(cpus: string | undefined): Promise<HistoryResult> {
  const fanout = async (server: ServerProcess): Promise<FanoutFigure> => {
    const fx = await buildFleet(server.base, P.ambulances);
    const procs = spawnLoad(P.loadProcs);
    try {
      const { placement } = await connectFleet([server.base], fx, procs);
      const f = await fleetPhase('history fan-out', { url: server.base, pids: [server.pid!] }, fx, procs, placement);
      const { p50, p95, p99, max, n } = f.viewer_fanout;
      return { p50, p95, p99, max, n, lost: f.lost };
    } finally {
      await Promise.all(procs.map((p) => p.close()));
    }
  };
  const result = await historyScenario({
    cases: num('history-cases', smoke ? 2000 : quick ? 40_000 : 400_000),
    samples: num('history-samples', smoke ? 3 : 30),
    deepPage: 1000,
    pgUrl: historyPg,
    cpus,
    // --no-history-fanout: the lists only (the smoke test: the fleet's fan-out has a smoke test of its own).
    fanout: flag('no-history-fanout') ? undefined : fanout,
    log,
  });
  // Run results stay out of git (.tmp/ is ignored).
  const file = path.join(ROOT, '.tmp', 'bench', `history-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  log(`history: results in ${path.relative(ROOT, file)}`);
  return result;
}

// ---------- main ----------
/** Everything one run measured (the JSON's `details`). */
interface BenchResult {
  profile: string; machine: Record<string, string | number | null | undefined>; placement: string; params: typeof P; server_start_rss_mb: undefined; nodes: number;
  engine: { database: string; redis?: string; redis_prefix?: string; skipped?: string[] };
  connect_seconds?: number; fleet?: FleetResult; dispatch?: FleetResult; polling?: FleetResult;
  ingest?: IngestResult; ingest_before?: IngestResult & { root: string }; ingest_floor?: IngestResult; server_stderr_tail?: string[];
  db_write?: Awaited<ReturnType<typeof dbWriteBaseline>>; ws_floor?: FleetResult; sio_floor?: FleetResult;
  reports?: ReportsResult; history?: HistoryResult; reportStorm?: ReportStormResult;
}
type FinishedRun = BenchResult & { seconds: number };

async function main() {
  if (scenarios.has('national')) {
    // Its own orchestration: every deployment in children of this script (national.ts); --repeat defaults to 3 there too.
    await nationalMain({ argv, repeat: num('repeat', smoke ? 1 : 3), jsonFile, log });
    return;
  }
  if (repeat > 1 || compareRef) {
    await repeatMain({ argv, repeat, compareRef, jsonFile, log });
    return;
  }
  const started = Date.now();
  const pinned = tasksetWorks() && LOAD_CPUS !== undefined;
  const machine = { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, total_mem_gb: round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.type()} ${os.release()}` };
  const placement = pinned
    ? `taskset: ${nodes ? `all ${nodes} server node${nodes > 1 ? 's' : ''}` : 'server'} on CPU ${SERVER_CPU}, load generators on CPU ${LOAD_CPUS}${nodes ? ' (PostgreSQL and Redis not pinned)' : ''}`
    : 'taskset unavailable: server and load share every CPU';
  log(`profile ${profile}; ${placement}`);
  if (skippedForNodes.length) log(`--nodes: ${skippedForNodes.join(', ')} skipped (single-node scenarios; run them without --nodes)`);
  // First, on a server of its own, while nothing else of the bench runs.
  const reports = scenarios.has('reports') ? await reportsBench() : undefined;
  const history = scenarios.has('history') ? await historyBench(pinned ? SERVER_CPU : undefined) : undefined;
  const reportStorm = scenarios.has('reportStorm') ? await reportStormBench(pinned ? SERVER_CPU : undefined) : undefined;
  if ([...scenarios].every((k) => k === 'reports' || k === 'history' || k === 'reportStorm')) {
    const run = { profile, machine, placement, params: P, server_start_rss_mb: undefined, nodes: 1, engine: { database: history?.length === 2 ? 'sqlite, postgres' : 'sqlite' }, reports, history, reportStorm, seconds: (Date.now() - started) / 1000 } satisfies FinishedRun;
    const summary = headline(run);
    printTable(summary, run);
    if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify({ ...summary, details: run }, null, 2)}\n`);
    return;
  }
  let cluster: ClusterHandle | undefined;
  let server: ServerProcess;
  if (nodes) {
    const t0 = Date.now();
    cluster = await startCluster({ nodes, databaseUrl, redisUrl, cpus: pinned ? SERVER_CPU : undefined });
    server = cluster.nodes[0];
    log(`${nodes} node${nodes > 1 ? 's' : ''} on PostgreSQL schema ${cluster.schema} and Redis prefix ${cluster.redisPrefix} up in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${cluster.nodes.map((n) => n.base).join(' ')}`);
  } else {
    server = await startServer({ databaseUrl: freshSqlite('bench'), cpus: pinned ? SERVER_CPU : undefined });
  }
  const servers = cluster?.nodes ?? [server];
  const urls = servers.map((s) => s.base);
  const pids = servers.map((s) => s.pid!);
  const redact = (u: string) => u.replace(/\/\/([^@/]*)@/, '//***@');
  const result: BenchResult = {
    profile, machine, placement, params: P, server_start_rss_mb: undefined, nodes: nodes ?? 1,
    engine: nodes ? { database: redact(cluster!.databaseUrl), redis: redact(redisUrl), redis_prefix: cluster!.redisPrefix, skipped: skippedForNodes } : { database: 'sqlite' },
    reports, history, reportStorm,
  };
  let fx: Fixtures | undefined;
  try {
    const t0 = Date.now();
    fx = await buildFleet(server.base, P.ambulances);
    log(`fleet of ${fx.fleet.length} ambulances on active cases with links in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (scenarios.has('fleet') || scenarios.has('dispatch') || scenarios.has('polling')) {
      const procs = spawnLoad(P.loadProcs);
      try {
        const { placement: where, connectSeconds } = await connectFleet(urls, fx, procs);
        result.connect_seconds = connectSeconds;
        if (scenarios.has('fleet')) {
          result.fleet = await fleetPhase('fleet', { url: server.base, pids }, fx, procs, where);
          log(`fleet: viewer fan-out p50 ${result.fleet.viewer_fanout.p50} p99 ${result.fleet.viewer_fanout.p99} ms, lost ${result.fleet.lost}${nodes ? ` (cross-node ${result.fleet.cross_node.received}/${result.fleet.cross_node.expected}, lost ${result.fleet.cross_node.lost})` : ''}, viewers held ${result.fleet.viewers_held}, cpu ${result.fleet.server.cpuPct.toFixed(0)}%, rss ${result.fleet.server.peakRssMb.toFixed(0)} MB`);
        }
        if (scenarios.has('dispatch')) {
          result.dispatch = await fleetPhase('fleet + dispatch', { url: server.base, pids }, fx, procs, where, { dispatch: true });
          log(`dispatch: case to staff p99 ${result.dispatch.dispatch?.case_to_staff.p99} ms, viewer p99 ${result.dispatch.viewer_fanout.p99} ms`);
        }
        // A phase of its own: the fleet phase carries exactly the floors' load, so their CPU per delivery compares.
        if (scenarios.has('polling')) {
          result.polling = await fleetPhase('fleet + polling', { url: server.base, pids }, fx, procs, where, { poll: true });
          log(`polling: staleness p50 ${result.polling.polling?.staleness.p50} ms, push p50 ${result.polling.viewer_fanout.p50} ms in the same phase`);
        }
      } finally {
        await Promise.all(procs.map((p) => p.close()));
      }
    }
    if (scenarios.has('ingest')) result.ingest = await ingestScenario(server, fx);
    result.server_stderr_tail = servers.flatMap((s) => s.output.filter((l) => l && !l.startsWith('position-writes ')).slice(-5));
  } finally {
    if (cluster) await cluster.stop();
    else await server.stop();
  }
  if (beforeRoot && scenarios.has('ingest')) {
    const before = await startServer({ databaseUrl: freshSqlite('before'), cpus: pinned ? SERVER_CPU : undefined, root: beforeRoot });
    try {
      log(`ingest against ${beforeRoot}`);
      result.ingest_before = { root: beforeRoot, ...(await ingestScenario(before, await buildFleet(before.base, P.ambulances))) };
    } finally {
      await before.stop();
    }
  }
  if (scenarios.has('baselines') && fx) {
    result.db_write = await dbWriteBaseline();
    log('db write path:', result.db_write.map((r) => `${r.label} ${r.usPerPosition.toFixed(0)} µs`).join('; '));
    if (scenarios.has('ingest')) {
      result.ingest_floor = await ingestFloorRun(fx);
      const sus = (x?: IngestStep) => (x ? `${round(x.stored_per_s, 0)}/s` : 'none');
      log(`ingest floor: sustained socket ${sus(result.ingest_floor.socket_sustained)}, REST ${sus(result.ingest_floor.rest_sustained)}`);
    }
    result.ws_floor = await floorRun('ws', fx);
    log(`ws floor: p99 ${result.ws_floor.viewer_fanout.p99} ms, ${result.ws_floor.server_cpu_ms_per_delivery.toFixed(4)} ms CPU/delivery`);
    result.sio_floor = await floorRun('sio', fx);
    log(`socket.io floor: p99 ${result.sio_floor.viewer_fanout.p99} ms, ${result.sio_floor.server_cpu_ms_per_delivery.toFixed(4)} ms CPU/delivery`);
  }
  const run: FinishedRun = { ...result, seconds: (Date.now() - started) / 1000 };
  const summary = headline(run);
  printTable(summary, run);
  if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify({ ...summary, details: run }, null, 2)}\n`);
}

/** The headline figures (the JSON object's top level). */
function headline(r: FinishedRun) {
  const f = r.fleet ?? r.dispatch;
  const pollP50 = r.polling?.polling?.staleness.p50;
  const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined && b > 0 && Number.isFinite(a) ? round(a / b, 2) : null);
  const cpuRef = (ing: IngestResult | undefined, k: 'rest' | 'socket') => (ing ? cpuAtReference(ing.steps[k], P.referenceRates[k]) ?? undefined : undefined);
  return {
    profile: r.profile,
    placement: r.placement,
    server_commit: serverCommit(),
    nodes: r.nodes,
    engine: r.nodes && nodes ? 'postgres+redis' : r.engine.database,
    viewers: P.viewers,
    staff_boards: P.staff,
    ambulances: P.ambulances,
    rate_hz: P.rate,
    phase_seconds: P.duration / 1000,
    positions_per_s: f ? round(f.positions_per_s) : null,
    deliveries_per_s: f ? round(f.deliveries_per_s) : null,
    fanout_p50_ms: f ? f.viewer_fanout.p50 : null,
    fanout_p95_ms: f ? f.viewer_fanout.p95 : null,
    fanout_p99_ms: f ? f.viewer_fanout.p99 : null,
    fanout_max_ms: f ? f.viewer_fanout.max : null,
    staff_fanout_p50_ms: f ? f.staff_fanout.p50 : null,
    staff_fanout_p99_ms: f ? f.staff_fanout.p99 : null,
    server_rss_mb: f ? round(f.server.peakRssMb) : null,
    server_cpu_pct: f ? round(f.server.cpuPct) : null,
    lost: f ? f.lost : null,
    viewers_held: f ? f.viewers_held : null,
    cross_node_deliveries: f ? f.cross_node.received : null,
    cross_node_lost: f ? f.cross_node.lost : null,
    out_of_order: f ? f.out_of_order : null,
    poll_staleness_p50_ms: pollP50 ?? null,
    // Push measured in the same phase as the polls.
    push_vs_poll: ratio(pollP50, r.polling?.viewer_fanout.p50),
    case_to_staff_p99_ms: r.dispatch?.dispatch?.case_to_staff.p99 ?? null,
    dispatch_calls: r.dispatch?.dispatch?.closed ?? null,
    dispatch_fanout_p99_ms: r.dispatch?.viewer_fanout.p99 ?? null,
    polling_fanout_p99_ms: r.polling?.viewer_fanout.p99 ?? null,
    // The guard figures: steady costs per unit of work, which a noisy latency hides.
    fleet_cpu_us_per_delivery: r.fleet ? round(r.fleet.server_cpu_ms_per_delivery * 1000, 2) : null,
    dispatch_cpu_us_per_delivery: r.dispatch ? round(r.dispatch.server_cpu_ms_per_delivery * 1000, 2) : null,
    ingest_rest_cpu_us_per_position: cpuRef(r.ingest, 'rest') ?? null,
    ingest_socket_cpu_us_per_position: cpuRef(r.ingest, 'socket') ?? null,
    ingest_rest_sustained_per_s: r.ingest ? sustainedRate(r.ingest.steps.rest) : null,
    ingest_socket_sustained_per_s: r.ingest ? sustainedRate(r.ingest.steps.socket) : null,
    // The same ladder against the ingest floor (ingestFloor.ts): what storing a position durably costs at the least.
    ingest_floor_rest_sustained_per_s: r.ingest_floor ? sustainedRate(r.ingest_floor.steps.rest) : null,
    ingest_floor_socket_sustained_per_s: r.ingest_floor ? sustainedRate(r.ingest_floor.steps.socket) : null,
    ingest_floor_rest_cpu_us_per_position: cpuRef(r.ingest_floor, 'rest') ?? null,
    ingest_floor_socket_cpu_us_per_position: cpuRef(r.ingest_floor, 'socket') ?? null,
    ingest_rest_cpu_vs_floor: ratio(cpuRef(r.ingest, 'rest'), cpuRef(r.ingest_floor, 'rest')),
    ingest_socket_cpu_vs_floor: ratio(cpuRef(r.ingest, 'socket'), cpuRef(r.ingest_floor, 'socket')),
    fleet_load_cpu_pct: r.fleet ? round(r.fleet.load_cpu_pct) : null,
    dispatch_load_cpu_pct: r.dispatch ? round(r.dispatch.load_cpu_pct) : null,
    polling_load_cpu_pct: r.polling ? round(r.polling.load_cpu_pct) : null,
    generator_bound: generatorBound(r),
    // Per storm level (quiet, 4, 8, 16, 16one, left): positions to viewers while reports run, and what the server spent.
    ...Object.fromEntries((r.reportStorm?.phases ?? []).flatMap((ph) => {
      const k = `storm_${ph.storm.key}`;
      return [[`${k}_p99_ms`, ph.viewer_fanout.p99], [`${k}_max_ms`, ph.viewer_fanout.max], [`${k}_loop_max_ms`, ph.event_loop_max_ms],
        [`${k}_cpu_pct`, round(ph.server.cpuPct, 0)], [`${k}_rss_mb`, round(ph.server.peakRssMb, 0)], [`${k}_config_max_ms`, round(ph.storm.config_probe_ms.max, 0)]];
    })),
    storm_abandoned_cpu_s: r.reportStorm?.abandoned.server_cpu_s ?? null,
    ingest_socket_per_s: r.ingest?.socket_sustained ? round(r.ingest.socket_sustained.stored_per_s, 0) : r.ingest ? 0 : null,
    ingest_socket_ack_p99_ms: r.ingest?.socket_sustained?.ack.p99 ?? null,
    ingest_rest_per_s: r.ingest?.rest_sustained ? round(r.ingest.rest_sustained.stored_per_s, 0) : r.ingest ? 0 : null,
    ingest_rest_ack_p99_ms: r.ingest?.rest_sustained?.ack.p99 ?? null,
    ...(r.ingest_before && r.ingest ? {
      before_ingest_socket_per_s: round(r.ingest_before.socket_sustained?.stored_per_s ?? 0, 0),
      before_ingest_rest_per_s: round(r.ingest_before.rest_sustained?.stored_per_s ?? 0, 0),
      before_ingest_socket_max_per_s: round(Math.max(...r.ingest_before.steps.socket.map((x) => x.stored_per_s)), 0),
      before_ingest_rest_max_per_s: round(Math.max(...r.ingest_before.steps.rest.map((x) => x.stored_per_s)), 0),
      ingest_socket_max_per_s: round(Math.max(...r.ingest.steps.socket.map((x) => x.stored_per_s)), 0),
      ingest_rest_max_per_s: round(Math.max(...r.ingest.steps.rest.map((x) => x.stored_per_s)), 0),
    } : {}),
    socketio_vs_ws_cpu: ratio(r.fleet?.server_cpu_ms_per_delivery, r.ws_floor?.server_cpu_ms_per_delivery),
    sio_floor_vs_ws_cpu: ratio(r.sio_floor?.server_cpu_ms_per_delivery, r.ws_floor?.server_cpu_ms_per_delivery),
    knex_vs_prepared: r.db_write ? ratio(r.db_write[0].usPerPosition, r.db_write[2].usPerPosition) : null,
    knex_vs_prepared_batched: r.db_write ? ratio(r.db_write[1].usPerPosition, r.db_write[3].usPerPosition) : null,
    report_assignments: r.reports?.year.assignments ?? null,
    response_times_30d_ms: r.reports?.response_times_30d?.median_ms ?? null,
    response_times_year_ms: r.reports?.response_times_year?.median_ms ?? null,
    csv_30d_ms: r.reports?.csv_30d?.median_ms ?? null,
    csv_year_ms: r.reports?.csv_year?.median_ms ?? null,
    csv_year_mb: r.reports?.csv_year?.bytes ? round(r.reports.csv_year.bytes / 1e6) : null,
    // Per engine: how many of the issue's targets the year met.
    history: r.history?.map((h) => ({ engine: h.engine, cases: h.year.cases, targets_met: h.checks.filter((c) => c[3]).length, targets: h.checks.length })) ?? null,
    seconds: round(r.seconds),
  };
}

/** The commit the servers ran (another worktree's with --compare's base), with "+" when it has uncommitted changes. */
function serverCommit(): string | null {
  const cwd = process.env.BENCH_SERVER_ROOT || ROOT;
  const git = (args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });
  const sha = git(['rev-parse', 'HEAD']);
  if (sha.status !== 0) return null;
  return `${sha.stdout.trim().slice(0, 12)}${git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() ? '+' : ''}`;
}

/** CPU µs per stored position at the ladder's reference rate: the same work in every run, so runs compare. */
function cpuAtReference(steps: readonly IngestStep[], rate: number) {
  const step = steps.find((s) => s.offered_per_s === rate);
  return step?.server_cpu_us_per_position == null ? null : round(step.server_cpu_us_per_position, 0);
}

/**
 * The load processes share one core: past GENERATOR_BOUND_PCT of it, part of what a phase measures
 * is the generator's own queueing, so the phase's latencies are marked rather than trusted.
 */
const GENERATOR_BOUND_PCT = 70;
function generatorBound(r: FinishedRun): string[] {
  const out: string[] = [];
  for (const [name, f] of [['fleet', r.fleet], ['dispatch', r.dispatch], ['polling', r.polling], ['ws floor', r.ws_floor], ['socket.io floor', r.sio_floor]] as const) {
    if (f && f.load_cpu_pct > GENERATOR_BOUND_PCT) out.push(`${name} (load ${round(f.load_cpu_pct, 0)} %)`);
  }
  for (const [name, ing] of [['ingest', r.ingest], ['ingest floor', r.ingest_floor]] as const) {
    for (const k of ['socket', 'rest'] as const) {
      for (const st of ing?.steps[k] ?? []) if (st.load_cpu_pct > GENERATOR_BOUND_PCT) out.push(`${name} ${k} ${st.offered_per_s}/s (load ${round(st.load_cpu_pct, 0)} %)`);
    }
  }
  return out;
}

function printTable(s: ReturnType<typeof headline>, r: FinishedRun) {
  const rows: [string, string | number][] = [];
  const add = (k: string, v: string | number | null) => rows.push([k, v ?? 'n/a']);
  add('profile / placement', `${s.profile}; ${s.placement}`);
  add('nodes / engine', `${s.nodes}; ${s.engine}${r.engine?.skipped?.length ? ` (skipped: ${r.engine.skipped.join(', ')})` : ''}`);
  add('fleet', `${s.ambulances} ambulances at ${s.rate_hz} Hz, ${s.viewers} viewers, ${s.staff_boards} staff boards`);
  for (const [name, f] of [['fleet', r.fleet], ['fleet + dispatch', r.dispatch], ['fleet + polling', r.polling], ['raw ws floor', r.ws_floor], ['socket.io floor', r.sio_floor]] as const) {
    if (!f) continue;
    add(`${name}: viewer fan-out p50/p95/p99/max ms`, `${f.viewer_fanout.p50} / ${f.viewer_fanout.p95} / ${f.viewer_fanout.p99} / ${f.viewer_fanout.max} (${f.viewer_fanout.n} deliveries)`);
    add(`${name}: staff fan-out p50/p99 ms (1 s tick)`, `${f.staff_fanout.p50} / ${f.staff_fanout.p99}`);
    add(`${name}: positions/s, deliveries/s`, `${round(f.positions_per_s)}, ${round(f.deliveries_per_s)}`);
    add(`${name}: lost / out of order / dup`, `${f.lost} / ${f.out_of_order} / ${f.duplicates} (expected ${f.expected_viewer_deliveries})`);
    add(`${name}: viewers held (connected at the end), disconnects`, `${f.viewers_held} of ${P.viewers}, ${f.disconnects}`);
    if (f.nodes > 1) add(`${name}: cross-node viewer deliveries received / expected, lost`, `${f.cross_node.received} / ${f.cross_node.expected}, ${f.cross_node.lost}`);
    if (f.server.per_node) add(`${name}: per node CPU % / peak RSS MB`, f.server.per_node.map((u) => `${round(u.cpuPct)} / ${round(u.peakRssMb, 0)}`).join(', '));
    if (f.postgres_redis) add(`${name}: PostgreSQL + Redis CPU % (all their processes)`, round(f.postgres_redis.cpuPct));
    add(`${name}: server CPU %, peak RSS MB${f.nodes > 1 ? ' (summed over the nodes)' : ''}, CPU µs/delivery; load CPU %`, `${round(f.server.cpuPct)}, ${round(f.server.peakRssMb)}, ${round(f.server_cpu_ms_per_delivery * 1000, 2)}; ${round(f.load_cpu_pct)}${f.load_cpu_pct > GENERATOR_BOUND_PCT ? ' GENERATOR-BOUND' : ''}`);
    if (f.dispatch) add(`${name}: cases created/closed, case→every staff board p50/p99 ms`, `${f.dispatch.created}/${f.dispatch.closed}, ${f.dispatch.case_to_staff.p50} / ${f.dispatch.case_to_staff.p99} (${f.dispatch.staff_deliveries} deliveries)`);
  }
  if (r.polling?.polling) {
    const p = r.polling.polling;
    add('polling 5 s: staleness p50/p99 ms', `${p.staleness.p50} / ${p.staleness.p99} (push p50 ${r.polling.viewer_fanout.p50} in the same phase: ${s.push_vs_poll}× lower)`);
    add('polling fleet 60 s / cases 30 s: derived staleness p50 ms', `${round(p.fleet.derived_staleness_p50_ms.ambulances_60s, 0)} / ${round(p.fleet.derived_staleness_p50_ms.cases_30s, 0)}`);
  }
  for (const [name, ing] of [['ingest', r.ingest], ['before: ingest', r.ingest_before], ['ingest floor', r.ingest_floor]] as const) {
    if (!ing) continue;
    for (const k of ['socket', 'rest'] as const) {
      for (const st of ing.steps[k]) add(`${name} ${k} offered ${st.offered_per_s}/s`, `stored ${round(st.stored_per_s, 0)}/s, ack p50/p99 ${st.ack.p50}/${st.ack.p99} ms, rows/tx ${st.rows_per_transaction === null ? 'n/a' : round(st.rows_per_transaction)}, CPU ${round(st.server_cpu_pct, 0)}% (${st.server_cpu_us_per_position === null ? null : round(st.server_cpu_us_per_position, 0)} µs/position), load CPU ${round(st.load_cpu_pct, 0)}%${st.load_cpu_pct > GENERATOR_BOUND_PCT ? ' GENERATOR-BOUND' : ''}${st.sustained ? ' ✓' : ''}`);
    }
    // A ladder held to its last step says only that the rate sustained is at least that.
    const top = { socket: P.socketRates.at(-1), rest: P.restRates.at(-1) };
    const sus = (x: IngestStep | undefined, k: 'socket' | 'rest') => (x ? `${round(x.stored_per_s, 0)}/s (p99 ${x.ack.p99} ms)${x.offered_per_s === top[k] ? ' (the ladder\'s top: at least)' : ''}` : 'none');
    add(`${name} sustained (p99 ≤ 50 ms at this and every lower step): socket, REST`, `${sus(ing.socket_sustained, 'socket')}, ${sus(ing.rest_sustained, 'rest')}`);
  }
  if (s.ingest_floor_rest_cpu_us_per_position !== null || s.ingest_floor_socket_cpu_us_per_position !== null) {
    const cpu = (k: 'rest' | 'socket') => `${s[`ingest_${k}_cpu_us_per_position`] ?? 'n/a'} / ${s[`ingest_floor_${k}_cpu_us_per_position`] ?? 'n/a'} (${s[`ingest_${k}_cpu_vs_floor`] ?? 'n/a'}×)`;
    add(`ingest CPU µs per stored position, Lifeline / floor: REST at ${P.referenceRates.rest}/s, socket at ${P.referenceRates.socket}/s`, `${cpu('rest')}, ${cpu('socket')}`);
  }
  if (r.db_write) for (const d of r.db_write) add(`db write: ${d.label}`, `${round(d.usPerPosition)} µs/position (${round(d.perSecond, 0)}/s)`);
  if (r.reports) {
    add('reports: the year', `${r.reports.year.assignments} assignments of ${r.reports.year.calls} calls, built in ${r.reports.year.build_seconds} s`);
    for (const [k, f] of Object.entries(r.reports)) {
      if (k === 'year') continue;
      const fig = f as ReportFigure;
      add(`reports: ${k} median ms (first byte; server CPU ms; bytes; server peak RSS MB; slowest /api/config meanwhile ms)`, fig.status === 200
        ? `${fig.median_ms} (${fig.ttfb_median_ms}; ${fig.server_cpu_ms_per_run}; ${fig.bytes}; ${fig.server_peak_rss_mb}; ${fig.probe_max_ms})`
        : `not measured: ${fig.status} ${fig.error ?? ''}`);
    }
  }
  if (r.reportStorm) {
    const st = r.reportStorm;
    add('reportStorm: the year', `${st.year.assignments} assignments of ${st.year.calls} calls; ${st.phase_seconds} s a level; ${st.viewers} viewers; server RSS at start ${st.server_rss_start_mb} MB`);
    for (const ph of st.phases) {
      const x = ph.storm;
      add(`reportStorm ${x.level}: positions p50/p99/max ms; event-loop max ms; server CPU %, peak RSS MB; 200/503/429/left; /api/config max ms`,
        `${ph.viewer_fanout.p50} / ${ph.viewer_fanout.p99} / ${ph.viewer_fanout.max} (lost ${ph.lost}); ${ph.event_loop_max_ms}; ${round(ph.server.cpuPct, 0)}, ${round(ph.server.peakRssMb, 0)}; ${x.ok}/${x.refused_503}/${x.refused_429}/${x.left}; ${round(x.config_probe_ms.max, 0)}`);
    }
    add('reportStorm: 4 year reports left after 150 ms, server CPU s (until 3 s after)', st.abandoned.server_cpu_s ?? 'n/a');
  }
  for (const h of r.history ?? []) {
    add(`history ${h.engine}: the year`, `${h.year.cases} cases (${h.year.active} active, ${h.year.pending} pending), ${h.year.assignments} assignments, built in ${h.year.build_seconds} s`);
    for (const [name, figure, target, met] of h.checks) add(`history ${h.engine}: ${name}`, `${figure}  (target ${target}) ${met ? '✓' : '✗'}`);
  }
  if (s.socketio_vs_ws_cpu !== null) add('CPU per delivery: Lifeline / ws floor, socket.io floor / ws floor', `${s.socketio_vs_ws_cpu}×, ${s.sio_floor_vs_ws_cpu}×`);
  add('run time s', s.seconds);
  const w = Math.max(...rows.map(([k]) => k.length));
  console.log(rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
