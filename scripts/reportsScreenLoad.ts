/**
 * What one open Reports screen costs the server while calls change (issue 26, item 2).
 *
 * Starts the real server as a child (SQLite, a year of demo history), changes a call every
 * second, and opens "the screen" in Node: the app's own QueryClient, live cache
 * (connectLiveCache over a real socket.io-client) and the screen's report queries, kept
 * observed as the mounted screen keeps them. Then the server's CPU (/proc/<pid>/stat) over a
 * window, with and without the screen, and the report requests the screen made.
 *
 *   npx tsx scripts/reportsScreenLoad.ts [--days 30] [--seconds 60] [--quiet 60] [--db .tmp/reports-year.sqlite] [--busy 500000 --db .tmp/busy-year.sqlite]
 *
 * A replay of the browser's requests rather than a browser: the Reports screen's queries are
 * the ones `reportsScreenQueries` answers, the same function the screen renders from.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { QueryObserver } from '@tanstack/react-query';
import { io } from 'socket.io-client';
import { DEMO } from '../realtime-server/testing/demoAccounts';
import { type CaseDto, type SignInResponse, localDate } from '../web/src/api/contract';
import { createQueryClient } from '../web/src/api/queryClient';
import { saveSession } from '../web/src/auth/session';
import { connectLiveCache } from '../web/src/realtime/liveCache';
import { memoryStorage } from '../web/src/testing/memoryStorage';
import { addDays, periodOf } from '../web/src/features/reports/reportPeriod';
import { allReportsScreenQueries } from '../web/src/features/reports/reportsScreenQueries';
import { buildHistory } from './bench/historyFixture';
import { cpuSeconds } from './bench/proc';

const { values: args } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '60' },
    /** The window without the screen (the baseline); as long as --seconds unless given. */
    quiet: { type: 'string' },
    db: { type: 'string', default: '.tmp/reports-year.sqlite' },
    /** Instead of the demo year: a busy centre's year of this many calls (the bench's builder), built once into --db. */
    busy: { type: 'string' },
  },
});
const DAYS = Number(args.days);
const SECONDS = Number(args.seconds);
const QUIET_SECONDS = Number(args.quiet ?? args.seconds);
const TZ = 'Asia/Kolkata';

const freePort = () => new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as AddressInfo;
    s.close(() => resolve(port));
  });
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  fs.mkdirSync(path.dirname(args.db), { recursive: true });
  if (args.busy && !fs.existsSync(args.db)) console.error(JSON.stringify(await buildHistory(args.db, { cases: Number(args.busy) })));
  const server = spawn('node_modules/.bin/tsx', ['realtime-server/main.ts'], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: args.db, DEMO_HISTORY_DAYS: '365', LOG_LEVEL: 'warn', GEOCODER_URL: 'off', RETENTION_DAYS: '3650' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stopServer = () => server.kill('SIGTERM');
  process.on('exit', stopServer);
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error('the server did not start');
    await sleep(200);
  }
  // tsx runs the server in a grandchild: its node process is the one doing the work.
  const pid = Number(fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim().split(/\s+/)[0]) || server.pid!;
  console.error(`server pid ${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, " ")}`);

  const realFetch = globalThis.fetch;
  const call = async <T>(method: string, p: string, token?: string, body?: unknown): Promise<T> => {
    const res = await realFetch(url + p, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const signin = await call<SignInResponse>('POST', '/api/auth/signin', undefined, DEMO.operator);
  const token = signin.token;

  // A call that changes every second: one case.updated to every staff socket each time.
  const created = await call<{ case: CaseDto }>('POST', '/live-location', token, { to: 'load@example.com', status: 'active', patientName: 'Load Patient', description: 'Fall' });
  const caseId = created.case.id;
  let changes = 0;
  let changing = true;
  const changer = (async () => {
    while (changing) {
      // One failed change (a busy database) is not the end of the run.
      await call('PUT', `/api/cases/${caseId}`, token, { description: `change ${++changes}` }).catch((err: unknown) => console.error(String(err)));
      await sleep(1000);
    }
  })();

  const meter = async (label: string, seconds: number) => {
    const c0 = cpuSeconds(pid)!;
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const cpu = cpuSeconds(pid)! - c0;
    const wall = (performance.now() - t0) / 1000;
    return { label, cpuSeconds: Number(cpu.toFixed(2)), cpuPct: Number(((100 * cpu) / wall).toFixed(1)) };
  };

  await sleep(3000);
  const quiet = await meter('calls changing, no Reports screen', QUIET_SECONDS);

  // The screen, in Node: the app's query client, live cache and queries, same-origin paths sent to the server.
  globalThis.localStorage = memoryStorage();
  saveSession(signin);
  let reportRequests = 0;
  let aborted = 0;
  globalThis.fetch = ((input: string, init?: RequestInit) => {
    if (input.startsWith('/api/reports')) {
      reportRequests += 1;
      init?.signal?.addEventListener('abort', () => { aborted += 1; });
    }
    return realFetch(input.startsWith('/') ? url + input : input, init);
  }) as typeof fetch;
  const qc = createQueryClient();
  const socket = io(url, { auth: { token }, transports: ['websocket'] });
  const unhook = connectLiveCache(socket, qc);
  const today = localDate(Date.now(), TZ);
  const period = periodOf(addDays(today, -(DAYS - 1)), today, TZ);
  const observers = allReportsScreenQueries(period, today).map((q) => new QueryObserver(qc, q as never));
  const stops = observers.map((o) => o.subscribe(() => {}));
  // The first load is the screen opening, not keeping it open.
  for (let i = 0; observers.some((o) => o.getCurrentResult().data === undefined); i++) {
    if (i > 1200) throw new Error('the reports did not load');
    await sleep(100);
  }
  const before = reportRequests;
  const abortedBefore = aborted;
  const open = await meter(`Reports screen open on ${DAYS} days`, SECONDS);

  changing = false;
  await changer;
  stops.forEach((s) => s());
  unhook();
  socket.disconnect();
  console.log(JSON.stringify({
    days: DAYS, seconds: SECONDS, callChanges: changes, quiet, open,
    screenCpuPct: Number((open.cpuPct - quiet.cpuPct).toFixed(1)),
    reportRequests: reportRequests - before,
    abortedRequests: aborted - abortedBefore,
  }, null, 2));
  stopServer();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
