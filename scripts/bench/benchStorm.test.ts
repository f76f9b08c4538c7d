import { describe, expect, it } from 'vitest';
import { bench } from './benchRun.testing';

/**
 * The harness measures (not the figures): a tiny run against a real server process must see
 * every position reach every viewer, time it, poll, ingest, and write the JSON the issue names.
 */
describe('npm run bench -- --scenarios reportStorm (smoke)', () => {
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
});
