import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/** The repository root (realtime-server/testing/ is two levels down). */
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

export interface SpawnNodeOptions {
  /** CPU list for taskset, e.g. "0" (ignored where taskset does not work). */
  cpus?: string;
  /** Added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** An IPC channel, with stdout inherited (the bench's load processes). */
  ipc?: boolean;
  /** Default: the repository root. */
  cwd?: string;
  /** Node flags before the script, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** In a process group of its own, so that a signal to -pid reaches it and anything it starts. */
  detached?: boolean;
}

/**
 * Spawns `node --import tsx script args`: one process (the pid is node's own, which CPU and
 * memory meters read), pinned to `cpus` when taskset works (taskset execs node, so the pid is
 * the same either way).
 */
export function spawnNode(script: string, args: string[], opts: SpawnNodeOptions = {}): ChildProcess {
  const nodeArgs = [...(opts.nodeArgs ?? []), '--import', 'tsx', script, ...args];
  const pinned = opts.cpus !== undefined && tasksetWorks();
  const [cmd, argv] = pinned ? ['taskset', ['-c', opts.cpus!, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  return spawn(cmd, argv, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    detached: opts.detached,
    stdio: opts.ipc ? ['ignore', 'inherit', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
}
