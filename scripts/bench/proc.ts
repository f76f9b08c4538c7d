import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Repository root (scripts/bench/ is two levels down). */
export const ROOT = path.resolve(import.meta.dirname, '../..');

let tasksetOk: boolean | undefined;
/** Whether `taskset -c` can pin a process here (it may be missing or refused in a container). */
export function tasksetWorks(): boolean {
  if (tasksetOk === undefined) {
    try {
      tasksetOk = os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
    } catch {
      tasksetOk = false;
    }
  }
  return tasksetOk;
}

/** Spawns `node --import tsx script args`, pinned to `cpus` (e.g. "0") when taskset works. */
export function spawnNode(script: string, args: string[], opts: { cpus?: string; env?: NodeJS.ProcessEnv; ipc?: boolean; cwd?: string; nodeArgs?: string[] } = {}): ChildProcess {
  const nodeArgs = [...(opts.nodeArgs ?? []), '--import', 'tsx', script, ...args];
  const pinned = opts.cpus !== undefined && tasksetWorks();
  const [cmd, argv] = pinned ? ['taskset', ['-c', opts.cpus!, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  return spawn(cmd, argv, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    // taskset execs node, so the child's pid is node's pid either way.
    stdio: opts.ipc ? ['ignore', 'inherit', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const CLK_TCK = 100; // Linux USER_HZ
/** CPU seconds (user + system) a process has used, from /proc; undefined once it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** Resident set size in MB, from /proc. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's CPU and peak RSS over a phase. */
export class ProcMeter {
  private cpu0 = 0;
  private t0 = 0;
  private peak = 0;
  private timer?: NodeJS.Timeout;
  constructor(private pid: number) {}
  start() {
    this.cpu0 = cpuSeconds(this.pid) ?? 0;
    this.t0 = performance.now();
    this.peak = rssMb(this.pid) ?? 0;
    this.timer = setInterval(() => { this.peak = Math.max(this.peak, rssMb(this.pid) ?? 0); }, 250);
    return this;
  }
  stop() {
    clearInterval(this.timer);
    const cpu = (cpuSeconds(this.pid) ?? this.cpu0) - this.cpu0;
    const wall = (performance.now() - this.t0) / 1000;
    this.peak = Math.max(this.peak, rssMb(this.pid) ?? 0);
    return { cpuSeconds: cpu, wallSeconds: wall, cpuPct: (100 * cpu) / wall, rssMb: rssMb(this.pid) ?? 0, peakRssMb: this.peak };
  }
}
