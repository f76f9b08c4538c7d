import fs from 'node:fs';
import path from 'node:path';
import { ServerProcess, freePort } from '../../realtime-server/testing/serverProcess';
import { ROOT } from '../../realtime-server/testing/spawnNode';

export interface ServerOptions {
  /** A SQLite file path or postgres:// URL; several nodes share one (--nodes N). */
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
    // Each bench loads the data it measures; the demo history would only blur it.
    DEMO_HISTORY_DAYS: '0',
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
export async function startServer(o: ServerOptions): Promise<ServerProcess> {
  const port = o.port ?? (await freePort());
  const env = benchEnv(o, port);
  // Unset rather than empty: the server then takes this process's SMTP_URL, if any.
  if (env.SMTP_URL === '') delete env.SMTP_URL;
  const defined = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const server = new ServerProcess(defined, `http://127.0.0.1:${port}`, {
    // BENCH_SERVER_ROOT: set by --compare (repeat.ts) for the base commit's repetitions.
    root: o.root ?? (process.env.BENCH_SERVER_ROOT || undefined), cpus: o.cpus, nodeArgs: o.nodeArgs ?? process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
    // The position writer's statistics come as lines on stderr; the last one counts.
    keepLines: 2000,
  }).start();
  try {
    await server.waitHealthy(60_000);
  } catch (err) {
    await server.kill9();
    throw err;
  }
  return server;
}

/** A fresh SQLite file under .tmp/bench (removed with its WAL files first). */
export function freshSqlite(name: string): string {
  const dir = path.join(ROOT, '.tmp', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}.sqlite`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  return file;
}
