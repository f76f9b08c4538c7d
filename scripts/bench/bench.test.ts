import { describe, expect, it } from 'vitest';
import { summarize } from './stats';
import { bench, expectEveryPositionHeard } from './benchRun.testing';

/**
 * The harness measures (not the figures): a tiny run against a real server process must see
 * every position reach every viewer, time it, poll, ingest, and write the JSON the issue names.
 */
describe('npm run bench (smoke)', () => {
  it('percentiles are nearest-rank over the samples', () => {
    const s = summarize(Array.from({ length: 100 }, (_, i) => 100 - i));
    expect([s.n, s.p50, s.p95, s.p99, s.max]).toEqual([100, 50, 95, 99, 100]);
    expect(Number.isNaN(summarize([]).p50)).toBe(true);
  });

  it('runs the fleet, polling and ingest scenarios on a real server and reports what it measured', async () => {
    const { r, text } = await bench(['--smoke', '--scenarios', 'fleet,polling,ingest']);
    for (const key of ['viewers', 'staff_boards', 'ambulances', 'positions_per_s', 'deliveries_per_s', 'fanout_p50_ms', 'fanout_p99_ms', 'server_rss_mb', 'server_cpu_pct', 'lost', 'poll_staleness_p50_ms', 'push_vs_poll', 'socketio_vs_ws_cpu']) {
      expect(r, key).toHaveProperty(key);
    }
    const f = r.details.fleet;
    expectEveryPositionHeard(r);
    expect(r.fanout_p50_ms).toBeGreaterThanOrEqual(0);
    expect(r.fanout_p99_ms).toBeLessThan(5000);
    expect(f.staff_positions).toBeGreaterThan(0);
    expect(r.deliveries_per_s).toBeGreaterThan(0);
    expect(r.server_rss_mb).toBeGreaterThan(20);
    expect(r.server_cpu_pct).toBeGreaterThan(0);
    // Polling was measured the same way, in a phase of its own: the first poll showing a position, after it was sent.
    expect(f.polling).toBeUndefined();
    expect(r.details.polling.polling.staleness.n).toBeGreaterThan(0);
    expect(r.poll_staleness_p50_ms).toBeGreaterThan(0);
    expect(r.push_vs_poll).toBeGreaterThan(0);
    // Ingest stored positions over both paths and knows how they were written.
    for (const k of ['socket', 'rest']) {
      const step = r.details.ingest.steps[k][0];
      expect(step.ok, k).toBeGreaterThan(0);
      expect(step.failed, k).toBe(0);
      expect(step.ack.n, k).toBe(step.ok);
    }
    expect(text).toMatch(/viewer fan-out p50\/p95\/p99\/max ms/);
  }, 60_000);
});

const PG = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;
const REDIS = process.env.REDIS_URL;
const clusterReason = !PG ? 'DATABASE_URL is not postgres://' : !REDIS ? 'REDIS_URL is not set' : undefined;
if (clusterReason) console.warn(`[bench smoke] skipped: npm run bench -- --nodes 2 (${clusterReason})`);

describe.skipIf(!!clusterReason)('npm run bench -- --nodes 2 (smoke, PostgreSQL + Redis)', () => {
  it('positions sent to one node reach the viewers on the other, none lost; the schema and Redis keys are removed', async () => {
    const { r, text } = await bench(['--smoke', '--nodes', '2', '--database-url', PG!, '--redis-url', REDIS!]);
    expect(r.nodes).toBe(2);
    expect(r.engine).toBe('postgres+redis');
    const f = r.details.fleet;
    // On both nodes.
    expectEveryPositionHeard(r);
    expect(f.duplicates).toBe(0);
    // Each driver's first viewer is on the other node: at least half the deliveries crossed, all of them arrived.
    expect(f.cross_node.expected).toBeGreaterThanOrEqual(f.expected_viewer_deliveries / 2);
    expect(f.cross_node.received).toBe(f.cross_node.expected);
    expect(r.cross_node_lost).toBe(0);
    expect(r.viewers_held).toBe(r.viewers);
    expect(f.staff_positions).toBeGreaterThan(0);
    expect(f.server.per_node).toHaveLength(2);
    // The run cleaned up after itself.
    const schema = /PostgreSQL schema (\w+) and Redis prefix (\S+)/.exec(text);
    expect(schema, text).not.toBeNull();
    const { default: knex } = await import('knex');
    const { postgresSchema } = await import('../../db/connection');
    const db = knex({ client: 'pg', connection: postgresSchema(PG!).connection, pool: { min: 0, max: 1 } });
    try {
      expect(await db('pg_namespace').where('nspname', schema![1]).pluck('nspname')).toEqual([]);
    } finally {
      await db.destroy();
    }
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS!);
    try {
      expect(await redis.keys(`${schema![2]}*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});
