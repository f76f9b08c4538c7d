import { describe, expect, it } from 'vitest';
import { bench } from './benchRun.testing';

/**
 * The harness measures (not the figures): a tiny run against a real server process must see
 * every position reach every viewer, time it, poll, ingest, and write the JSON the issue names.
 */
describe('npm run bench -- --compare (smoke)', () => {
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
});
