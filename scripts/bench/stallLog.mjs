/**
 * Preloaded into a server to see its event-loop stalls:
 *   BENCH_SERVER_NODE_ARGS="--import ./scripts/bench/stallLog.mjs" npm run bench -- --scenarios ingest
 * Writes to $STALL_LOG (default /tmp/lifeline-stalls-<pid>.log) one line per gap of more than 30 ms
 * between the turns of a 5 ms timer, with the process's user and system CPU time in that gap
 * (about equal to the gap: the loop was busy; much less: it waited, or the process was not run),
 * and one line per V8 garbage collection pause over 10 ms (kind 1 scavenge, 4 mark-compact,
 * 8 incremental marking, 16 weak callbacks). Plain JavaScript, so it needs no loader.
 */
import fs from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const out = fs.openSync(process.env.STALL_LOG || `/tmp/lifeline-stalls-${process.pid}.log`, 'w');
const log = (line) => fs.writeSync(out, `${new Date().toISOString()} ${line}\n`);

let last = performance.now();
let lastCpu = process.cpuUsage();
setInterval(() => {
  const now = performance.now();
  const cpu = process.cpuUsage();
  if (now - last > 30) {
    log(`stall ${(now - last).toFixed(0)} ms, cpu user ${((cpu.user - lastCpu.user) / 1000).toFixed(0)} ms system ${((cpu.system - lastCpu.system) / 1000).toFixed(0)} ms`);
  }
  last = now;
  lastCpu = cpu;
}, 5).unref();

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.duration > 10) log(`gc kind ${e.detail?.kind} ${e.duration.toFixed(0)} ms`);
}).observe({ entryTypes: ['gc'] });
