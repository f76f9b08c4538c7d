import { describe, expect, it } from 'vitest';
import { bench } from './benchRun.testing';

/**
 * The harness measures (not the figures): the ingest ladder run against the ingest floor
 * (scripts/bench/ingestFloor.ts) must store positions over both paths, each acknowledged one
 * committed as one row, and report the floor beside Lifeline.
 */
describe('npm run bench -- --scenarios ingest,baselines (smoke)', () => {
  it('the ingest floor stores every acknowledged position over socket and REST, and the summary names it', async () => {
    // The fan-out floors that `baselines` also runs are not what this checks: their fleet phase kept to a second.
    const { r, text } = await bench(['--smoke', '--scenarios', 'ingest,baselines', '--duration', '1']);
    for (const k of ['socket', 'rest']) {
      const step = r.details.ingest_floor.steps[k][0];
      expect(step.ok, k).toBeGreaterThan(0);
      expect(step.failed, k).toBe(0);
      expect(step.ack.n, k).toBe(step.ok);
      // The floor's own counters (its `position-writes` lines): committed rows, one per acknowledged position.
      expect(step.transactions, k).toBeGreaterThan(0);
      expect(step.rows_per_transaction * step.transactions, k).toBeCloseTo(step.ok, 6);
    }
    for (const key of ['ingest_floor_rest_sustained_per_s', 'ingest_floor_socket_sustained_per_s', 'ingest_floor_rest_cpu_us_per_position', 'ingest_floor_socket_cpu_us_per_position', 'ingest_rest_cpu_vs_floor', 'ingest_socket_cpu_vs_floor']) {
      expect(typeof r[key], key).toBe('number');
    }
    expect(r.ingest_floor_rest_cpu_us_per_position).toBeGreaterThan(0);
    expect(r.ingest_floor_socket_cpu_us_per_position).toBeGreaterThan(0);
    expect(text).toMatch(/ingest floor sustained/);
    expect(text).toMatch(/ingest CPU µs per stored position, Lifeline \/ floor/);
  }, 90_000);
});
