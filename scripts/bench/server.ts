import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, freePort, spawnNode } from './proc';

export interface ServerOptions {
  /** A SQLite file path or postgres:// URL; several nodes share one (issue 7: --nodes N). */
  databaseUrl: string;
  redisUrl?: string;
  port?: number;
  /** CPU list for taskset, e.g. "0". */
  cpus?: string;
  seed?: 'demo' | 'none';
  env?: NodeJS.ProcessEnv;
  /** The checkout to run (default this one): another tree measures a commit before an optimisation. */
  root?: string;
  /** Extra node flags, e.g. --cpu-prof (BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"). */
  nodeArgs?: string[];
}

export interface ServerHandle {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stderr (warnings, fatal errors, write statistics). */
  stderr(): string;
  stop(): Promise<void>;
}

/** The production settings of the bench: quiet logs, no geocoder, limits out of the way of the load. */
export function benchEnv(o: ServerOptions, port: number): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: o.databaseUrl,
    // Not the caller's REDIS_URL: one node stays one node (with the default prefix it would hear other servers).
    REDIS_URL: o.redisUrl ?? '',
    SEED: o.seed ?? 'demo',
    LOG_LEVEL: 'warn',
    DRAIN_SECONDS: '0',
    GEOCODER_URL: 'off',
    SMTP_URL: '',
    LINK_LIMIT_PER_MIN: '100000000',
    LINK_LIMIT_PER_CLIENT: '100000000',
    SOCKET_EVENTS_PER_SEC: '1000000',
    LINK_SOCKETS_MAX: '1000000',
    SIGNIN_LIMIT_IP: '1000000',
    SIGNIN_LIMIT_ACCOUNT: '1000000',
    // Reported by the position writer when it runs (rows per transaction).
    BENCH_WRITE_STATS: '1',
    ...o.env,
  };
}

/** Starts one real server process (`realtime-server/main.ts`) and waits until /api/health answers. */
export async function startServer(o: ServerOptions): Promise<ServerHandle> {
  const port = o.port ?? (await freePort());
  const env = benchEnv(o, port);
  if (env.SMTP_URL === '') delete env.SMTP_URL;
  const child = spawnNode(path.join(o.root ?? ROOT, 'realtime-server/main.ts'), [], { cpus: o.cpus, env, cwd: o.root, nodeArgs: o.nodeArgs ?? process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) });
  let err = '';
  child.stderr!.on('data', (d) => { err = (err + d).slice(-200_000); });
  child.stdout!.on('data', (d) => { err = (err + d).slice(-200_000); });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before it answered:\n${err.slice(-4000)}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /api/health within 60 s:\n${err.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    child,
    stderr: () => err,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => { clearTimeout(kill); resolve(); });
      child.kill('SIGTERM');
    }),
  };
}

/** A fresh SQLite file under .tmp/bench (removed with its WAL files first). */
export function freshSqlite(name: string): string {
  const dir = path.join(ROOT, '.tmp', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}.sqlite`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  return file;
}
