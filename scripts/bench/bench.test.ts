import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from './stats';
import { ROOT } from '../../realtime-server/testing/spawnNode';

/** Runs `npm run bench` with these arguments and `--json`; its exit code must be 0. Answers the report and the output. */
async function bench(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), 'out.json');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', ...args, '--json', out], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d) => { text += d; });
  child.stderr.on('data', (d) => { text += d; });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, text).toBe(0);
  return { r: JSON.parse(fs.readFileSync(out, 'utf8')), text };
}

/** Every acknowledged position was heard by each of its ambulance's viewers, and timed; none lost. */
function expectEveryPositionHeard(r: any) {
  const f = r.details.fleet;
  expect(f.positions_acked).toBeGreaterThan(0);
  expect(f.expected_viewer_deliveries).toBe(f.positions_acked * (r.viewers / r.ambulances));
  expect(f.viewer_fanout.n).toBe(f.expected_viewer_deliveries);
  expect(r.lost).toBe(0);
}

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

  it('--compare runs both commits interleaved, each server from its own checkout, and rates every figure', async () => {
    // HEAD as the base: its worktree has this lock file, so node_modules is copied, not installed.
    const { r, text } = await bench(['--smoke', '--scenarios', 'fleet', '--repeat', '1', '--compare', 'HEAD']);
    expect(r.order).toEqual(['base', 'head']);
    expect(r.base.runs).toHaveLength(1);
    expect(r.head.runs).toHaveLength(1);
    // The base's server ran from .tmp/bench/base-<sha>, at the commit asked for.
    expect(r.base.runs[0].server_commit).toBe(r.base.sha.slice(0, 12));
    expect(r.head.runs[0].server_commit.replace(/\+$/, '')).toBe(r.head.sha.slice(0, 12));
    for (const side of [r.base, r.head]) {
      expect(side.spread.fanout_p99_ms.n).toBe(1);
      expect(side.runs[0].lost).toBe(0);
    }
    const p99 = r.comparison.find((c: { key: string }) => c.key === 'fanout_p99_ms');
    expect(p99.ratio).toBeGreaterThan(0);
    expect(['noise', 'regression', 'gain']).toContain(p99.verdict);
    expect(text).toMatch(/interleaved A B \(A = base/);
  }, 120_000);

  it('runs the reports scenario alone: a small year built, the CSV of 30 days and of the year timed', async () => {
    const { r } = await bench(['--smoke', '--scenarios', 'reports']);
    const rep = r.details.reports;
    expect(rep.year.assignments).toBe(r.report_assignments);
    expect(rep.year.assignments).toBeGreaterThan(4500);
    for (const k of ['csv_30d', 'csv_year']) {
      expect(rep[k].status, k).toBe(200);
      expect(rep[k].median_ms, k).toBeGreaterThan(0);
      expect(rep[k].server_peak_rss_mb, k).toBeGreaterThan(20);
      // The server was asked for /api/config while the report ran, and answered.
      expect(rep[k].probes, k).toBeGreaterThan(0);
      expect(rep[k].probe_max_ms, k).toBeGreaterThanOrEqual(rep[k].probe_median_ms);
    }
    // The year's file holds every assignment: over 100 bytes a row.
    expect(rep.csv_year.bytes).toBeGreaterThan(rep.year.assignments * 100);
    expect(rep.csv_year.bytes).toBeGreaterThan(rep.csv_30d.bytes * 10);
    expect(r.csv_year_ms).toBe(rep.csv_year.median_ms);
    // The fleet's scenarios did not run.
    expect(r.details.fleet).toBeUndefined();
  }, 90_000);

  it('runs the reportStorm scenario on a tiny year: positions timed through every level, the answers counted, the abandoned reports\' cost read', async () => {
    const { r, text } = await bench(['--smoke', '--scenarios', 'reportStorm', '--storm-seconds', '2']);
    const st = r.details.reportStorm;
    expect(st.year.assignments).toBeGreaterThan(4500);
    expect(st.phases.map((p: any) => p.storm.level)).toEqual(['quiet', '4 at once', '8 at once', '16 at once', '16 at once, one operator', '8 at once, each left after 150 ms']);
    for (const p of st.phases) {
      // Every level streamed positions to the viewers, none lost, and measured the server.
      expect(p.viewer_fanout.n, p.storm.level).toBeGreaterThan(0);
      expect(p.lost, p.storm.level).toBe(0);
      expect(p.server.peakRssMb, p.storm.level).toBeGreaterThan(20);
      expect(p.storm.config_probe_ms.n, p.storm.level).toBeGreaterThan(0);
      expect(p.event_loop_max_ms, p.storm.level).toBeGreaterThanOrEqual(0);
      // Every request was answered one of the expected ways (200, 503, 429, left by its client, or cut when the level ended).
      expect(p.storm.other, p.storm.level).toEqual({});
      expect(p.storm.asked, p.storm.level).toBe(p.storm.ok + p.storm.refused_503 + p.storm.refused_429 + p.storm.left + p.storm.cut_at_end);
    }
    const [quiet, four] = st.phases;
    expect(quiet.storm.asked).toBe(0);
    expect(four.storm.ok).toBeGreaterThan(0);
    // How many were refused or left depends on how fast the tiny year's reports are made: counted, not asserted.
    for (const p of st.phases.slice(1)) expect(p.storm.clients).toBeGreaterThan(0);
    expect(st.abandoned).toMatchObject({ reports: 4, settle_ms: 3000 });
    expect(st.abandoned.server_cpu_s).toBeGreaterThanOrEqual(0);
    expect(r.details.fleet).toBeUndefined();
    expect(text).toMatch(/reportStorm 16 at once: positions p50\/p99\/max ms; event-loop max ms/);
  }, 120_000);

  it('runs the history scenario on a tiny year: the board, pages by cursor and searches asked and timed, the event loop read', async () => {
    // The fleet's fan-out, which the scenario runs on the year and on an empty database, has its own smoke test above.
    // SQLite only, whatever the run's DATABASE_URL (a postgres:// one adds the PostgreSQL pass, which CI's env has).
    const { DATABASE_URL: _omitted, ...sqliteOnly } = process.env;
    const { r, text } = await bench(['--smoke', '--scenarios', 'history', '--history-cases', '1000', '--history-samples', '2', '--no-history-fanout'], sqliteOnly);
    expect(r.details.fleet).toBeUndefined();
    const [h] = r.details.history;
    expect(h.engine).toBe('sqlite');
    expect(h.year).toMatchObject({ cases: 1000 });
    expect(h.year.assignments).toBeGreaterThan(990);
    expect(r.history).toEqual([{ engine: 'sqlite', cases: 1000, targets_met: expect.any(Number), targets: h.checks.length }]);
    // The board answered, was timed, and its size counted on the wire and decompressed.
    expect(h.board).toMatchObject({ status: 200, ok: true });
    expect(h.board.latency.n).toBe(2);
    expect(h.board.raw_bytes).toBeGreaterThan(h.board.wire_bytes);
    for (const g of [h.board, h.first_page, ...Object.values<any>(h.searches)]) {
      expect(g.latency.n, g.path).toBeGreaterThan(0);
      // The server's own event-loop delay max over the group, from its /api/metrics.
      expect(g.event_loop_max_ms, g.path).toBeGreaterThan(0);
    }
    expect(h.searches.id_prefix.path).toMatch(/q=[0-9a-f]{8}$/);
    // Every page walked by cursor (1,000 calls: 40 pages of 25), none twice; the searched calls found.
    expect(h.page_walk).toMatchObject({ pages: 40, rows: 1000, duplicates: 0 });
    expect(h.page_walk.error).toBeUndefined();
    for (const k of ['name', 'id_prefix', 'address_word', 'plate']) expect(h.searches[k].ok, k).toBe(true);
    expect(h.searches.id_prefix.total).toBe(1);
    expect(h.fanout).toEqual({});
    expect(h.checks.map((c: string[]) => c[0])).toContain('server event-loop delay max');
    expect(text).toMatch(/history sqlite: board: latency/);
  }, 90_000);
});

/** `--nodes 2` needs a PostgreSQL and a Redis: only with DATABASE_URL=postgres://… and REDIS_URL. */
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
