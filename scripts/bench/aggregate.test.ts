import { describe, expect, it } from 'vitest';
import { FLOOR_FIGURES, aggregate, compare, interleave, spread, sustainedRate } from './aggregate';
import { childArgs } from './repeat';

describe('bench repetitions', () => {
  it('a figure is its median with min and max', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(spread([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4, n: 4 });
    expect(spread([])).toBeUndefined();
  });

  it('aggregates the numeric headline figures and skips the rest', () => {
    const a = aggregate([{ fanout_p99_ms: 120, engine: 'sqlite', lost: 0 }, { fanout_p99_ms: 600, engine: 'sqlite', lost: 0 }, { fanout_p99_ms: 180, lost: null }]);
    expect(a.fanout_p99_ms).toEqual({ median: 180, min: 120, max: 600, n: 3 });
    expect(a.engine).toBeUndefined();
    expect(a.lost.n).toBe(2);
  });

  it('sustained ingest holds in every repetition: the lowest run decides', () => {
    const a = aggregate([{ ingest_rest_sustained_per_s: 2000 }, { ingest_rest_sustained_per_s: 1000 }, { ingest_rest_sustained_per_s: 2500 }]);
    expect(a.ingest_rest_sustained_per_s.median).toBe(1000);
  });

  it('the ingest floor figures aggregate (its sustained rates the lowest run) but are never compared: the floor is the same code on both sides', () => {
    const runs = [{ ingest_floor_socket_sustained_per_s: 7500, ingest_floor_rest_cpu_us_per_position: 90 }, { ingest_floor_socket_sustained_per_s: 5000, ingest_floor_rest_cpu_us_per_position: 110 }];
    const a = aggregate(runs);
    expect(a.ingest_floor_socket_sustained_per_s.median).toBe(5000);
    expect(a.ingest_floor_rest_cpu_us_per_position).toEqual({ median: 100, min: 90, max: 110, n: 2 });
    const compared = compare(a, a).map((c) => c.spec.key);
    expect(FLOOR_FIGURES.length).toBeGreaterThan(0);
    for (const f of FLOOR_FIGURES) expect(compared).not.toContain(f.key);
  });

  it('a must-hold figure shows its lowest run, but one spike in one run is noise while the runs overlap', () => {
    const base = aggregate([{ ingest_rest_sustained_per_s: 1000 }, { ingest_rest_sustained_per_s: 2000 }, { ingest_rest_sustained_per_s: 2000 }]);
    const head = aggregate([{ ingest_rest_sustained_per_s: 500 }, { ingest_rest_sustained_per_s: 1000 }, { ingest_rest_sustained_per_s: 1000 }]);
    const [c] = compare(base, head).filter((x) => x.spec.key === 'ingest_rest_sustained_per_s');
    expect([c.base?.median, c.head?.median, c.verdict]).toEqual([1000, 500, 'noise']);
    const worse = aggregate([{ ingest_rest_sustained_per_s: 250 }, { ingest_rest_sustained_per_s: 500 }]);
    expect(compare(base, worse).find((x) => x.spec.key === 'ingest_rest_sustained_per_s')?.verdict).toBe('regression');
  });

  it('sustained is the top of the unbroken ladder: a spike at a lower step ends it', () => {
    const steps = [500, 1000, 1500, 2000].map((r) => ({ offered_per_s: r, sustained: r !== 1500 }));
    expect(sustainedRate(steps)).toBe(1000);
    expect(sustainedRate([{ offered_per_s: 250, sustained: false }, { offered_per_s: 500, sustained: true }])).toBe(0);
  });

  it('ranges that overlap are noise; apart and worse is a regression, apart and better a gain', () => {
    const base = aggregate([{ fanout_p99_ms: 100, fleet_cpu_us_per_delivery: 40, dispatch_calls: 300 }, { fanout_p99_ms: 300, fleet_cpu_us_per_delivery: 41, dispatch_calls: 320 }, { fanout_p99_ms: 200, fleet_cpu_us_per_delivery: 42, dispatch_calls: 310 }]);
    const head = aggregate([{ fanout_p99_ms: 250, fleet_cpu_us_per_delivery: 47, dispatch_calls: 400 }, { fanout_p99_ms: 650, fleet_cpu_us_per_delivery: 48, dispatch_calls: 420 }, { fanout_p99_ms: 180, fleet_cpu_us_per_delivery: 46, dispatch_calls: 410 }]);
    const byKey = Object.fromEntries(compare(base, head).map((c) => [c.spec.key, c]));
    expect(byKey.fanout_p99_ms.verdict).toBe('noise');
    expect(byKey.fanout_p99_ms.ratio).toBeCloseTo(1.25);
    expect(byKey.fleet_cpu_us_per_delivery.verdict).toBe('regression');
    expect(byKey.dispatch_calls.verdict).toBe('gain');
    expect(byKey.polling_fanout_p99_ms.verdict).toBe('n/a');
  });

  it('interleaves the two commits A B B A so a drift falls on both alike', () => {
    expect(interleave(3)).toEqual(['base', 'head', 'head', 'base', 'base', 'head']);
  });

  it('each repetition gets the options but not the repetition ones', () => {
    expect(childArgs(['--quick', '--repeat', '3', '--compare', 'abc', '--json', 'x.json', '--scenarios', 'fleet'])).toEqual(['--quick', '--scenarios', 'fleet']);
  });
});
