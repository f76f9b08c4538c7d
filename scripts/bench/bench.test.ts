import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from './stats';
import { ROOT } from './proc';

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

  it('runs the fleet and ingest scenarios on a real server and reports what it measured', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), 'out.json');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', '--smoke', '--scenarios', 'fleet,ingest', '--json', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => { text += d; });
    child.stderr.on('data', (d) => { text += d; });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, text).toBe(0);
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    for (const key of ['viewers', 'staff_boards', 'ambulances', 'positions_per_s', 'deliveries_per_s', 'fanout_p50_ms', 'fanout_p99_ms', 'server_rss_mb', 'server_cpu_pct', 'lost', 'poll_staleness_p50_ms', 'push_vs_poll', 'socketio_vs_ws_cpu']) {
      expect(r, key).toHaveProperty(key);
    }
    const f = r.details.fleet;
    // Every acknowledged position was heard by each of its ambulance's viewers, and timed.
    expect(f.positions_acked).toBeGreaterThan(0);
    expect(f.expected_viewer_deliveries).toBe(f.positions_acked * (r.viewers / r.ambulances));
    expect(f.viewer_fanout.n).toBe(f.expected_viewer_deliveries);
    expect(r.lost).toBe(0);
    expect(r.fanout_p50_ms).toBeGreaterThanOrEqual(0);
    expect(r.fanout_p99_ms).toBeLessThan(5000);
    expect(f.staff_positions).toBeGreaterThan(0);
    expect(r.deliveries_per_s).toBeGreaterThan(0);
    expect(r.server_rss_mb).toBeGreaterThan(20);
    expect(r.server_cpu_pct).toBeGreaterThan(0);
    // Polling was measured the same way: the first poll showing a position, after it was sent.
    expect(f.polling.staleness.n).toBeGreaterThan(0);
    expect(r.poll_staleness_p50_ms).toBeGreaterThan(0);
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
