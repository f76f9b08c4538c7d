/**
 * npx tsx scripts/bench/socketMemory.ts [SOCKETS] [BASE_ROOT]
 *
 * What one tracking page's socket costs the server in memory: a real server (fresh SQLite, the
 * bench's settings, on CPU 0 where taskset works) with 20 tracked ambulances, its RSS before and
 * 5 s after SOCKETS (default 5,000) viewer sockets connect. With BASE_ROOT (another checkout,
 * e.g. the `.tmp/bench/base-<sha>` tree that `npm run bench -- --compare` leaves) it measures
 * that tree's server and this one's in turn, twice each (BENCHMARKS.md, "Peak RSS").
 */
import fs from 'node:fs';
import { buildFleet, pool } from './fixtures';
import { connectLite } from './liteSocket';
import { freshSqlite, startServer } from './server';

const sockets = Number(process.argv[2] ?? 5000);
const baseRoot = process.argv[3];
const order: [string, string | undefined][] = baseRoot
  ? [['base', baseRoot], ['head', undefined], ['base', baseRoot], ['head', undefined]]
  : [['head', undefined]];
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const [name, root] of order) {
  const server = await startServer({ databaseUrl: freshSqlite('socket-memory'), root, cpus: '0' });
  try {
    const fx = await buildFleet(server.base, 20);
    await sleep(3000);
    const before = rssMb(server.pid!);
    const open = await pool(Array.from({ length: sockets }, (_, i) => i), 100, (i) => connectLite(server.base, { trackToken: fx.fleet[i % fx.fleet.length].viewerToken }));
    await sleep(5000);
    const after = rssMb(server.pid!);
    const connected = open.filter(Boolean).length;
    console.log(`${name}: ${connected} sockets, RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB, ${Math.round(((after - before) * 1024 * 1024) / Math.max(1, connected))} B per socket`);
    for (const s of open) s?.close();
  } finally {
    await server.kill9();
  }
}
process.exit(0);
