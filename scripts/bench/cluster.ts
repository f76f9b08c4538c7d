/**
 * `npm run bench -- --nodes N`: N real server processes on one PostgreSQL schema and one Redis
 * prefix (the deployment of docs/operations.md, "Several nodes", on one machine), and their clean-up.
 */
import fs from 'node:fs';
import { Redis } from 'ioredis';
import { isPostgresUrl } from '../../db/connection';
import type { ServerProcess } from '../../realtime-server/testing/serverProcess';
import { dropSchema } from '../../realtime-server/testing/testEngine';
import { startServer } from './server';

export const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/test';
export const LOCAL_REDIS = 'redis://127.0.0.1:6379';

export interface ClusterHandle {
  nodes: ServerProcess[];
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  schema: string;
  stop(): Promise<void>;
}

/** `url` with a fresh `?schema=lifeline_bench_<pid>_<ms>` (the first node's pool creates it). */
export function freshSchemaUrl(url: string) {
  if (!isPostgresUrl(url)) throw new Error(`--nodes needs a postgres:// database URL, not ${url}`);
  const schema = `lifeline_bench_${process.pid}_${Date.now()}`;
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return { url: u.toString(), schema };
}

/**
 * Starts the first node (it migrates and seeds), then the others at once; every node gets the
 * same DATABASE_URL, REDIS_URL and REDIS_PREFIX. If one fails, the started ones are stopped and
 * the schema and keys are removed.
 */
export async function startCluster(o: { nodes: number; databaseUrl: string; redisUrl: string; cpus?: string }): Promise<ClusterHandle> {
  const { url, schema } = freshSchemaUrl(o.databaseUrl);
  const redisPrefix = `lifeline-bench-${process.pid}-${Date.now()}`;
  const nodes: ServerProcess[] = [];
  const opts = { databaseUrl: url, redisUrl: o.redisUrl, cpus: o.cpus, env: { REDIS_PREFIX: redisPrefix } };
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await cleanUp(url, o.redisUrl, redisPrefix);
  };
  try {
    nodes.push(await startServer(opts));
    nodes.push(...(await Promise.all(Array.from({ length: o.nodes - 1 }, () => startServer(opts)))));
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  return { nodes, databaseUrl: url, redisUrl: o.redisUrl, redisPrefix, schema, stop };
}

/** Drops the run's schema and deletes its Redis keys. */
export async function cleanUp(databaseUrl: string, redisUrl: string, prefix: string) {
  await dropSchema(databaseUrl);
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Pids of the processes whose command name is one of `names` (e.g. postgres, redis-server), from /proc. */
export function pidsNamed(names: string[]): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const comm = fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim();
      if (names.includes(comm)) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}
