/**
 * Repetitions of one bench run, made into figures that can be compared: each headline figure as
 * the median with its min–max over the repetitions, and two commits' figures as a ratio with
 * whether their ranges overlap. One run's p99 under load moves ×3–4 between runs of the same
 * commit; only ranges that do not overlap say that a change moved a figure.
 */

/** A headline figure over repetitions. */
export interface Spread { median: number; min: number; max: number; n: number }

/** Lower is better (latency, CPU, memory) or higher is better (throughput). */
export type Better = 'lower' | 'higher';

/**
 * The figures a comparison prints, in order. `guard`: steady costs (CPU per unit of work) that
 * catch a regression a noisy latency hides; `user`: what a viewer, dispatcher or device sees.
 * `all`: a figure that must hold in every repetition (sustained ingest) is the lowest of them.
 */
export interface FigureSpec { key: string; label: string; better: Better; kind: 'guard' | 'user'; all?: boolean }

export const FIGURES: readonly FigureSpec[] = [
  { key: 'fleet_cpu_us_per_delivery', label: 'fleet: server CPU µs per delivery', better: 'lower', kind: 'guard' },
  { key: 'dispatch_cpu_us_per_delivery', label: 'fleet + dispatch: server CPU µs per delivery', better: 'lower', kind: 'guard' },
  { key: 'ingest_rest_cpu_us_per_position', label: 'ingest REST: server CPU µs per stored position (reference rate)', better: 'lower', kind: 'guard' },
  { key: 'ingest_socket_cpu_us_per_position', label: 'ingest socket: server CPU µs per stored position (reference rate)', better: 'lower', kind: 'guard' },
  { key: 'fanout_p50_ms', label: 'fleet: viewer p50 ms', better: 'lower', kind: 'user' },
  { key: 'fanout_p99_ms', label: 'fleet: viewer p99 ms', better: 'lower', kind: 'user' },
  { key: 'dispatch_fanout_p99_ms', label: 'fleet + dispatch: viewer p99 ms', better: 'lower', kind: 'user' },
  { key: 'dispatch_calls', label: 'fleet + dispatch: calls created and closed', better: 'higher', kind: 'user' },
  { key: 'case_to_staff_p99_ms', label: 'fleet + dispatch: case to every board p99 ms', better: 'lower', kind: 'user' },
  { key: 'polling_fanout_p99_ms', label: 'fleet + polling: viewer p99 ms', better: 'lower', kind: 'user' },
  { key: 'ingest_rest_sustained_per_s', label: 'ingest REST sustained /s (p99 ≤ 50 ms, every repetition)', better: 'higher', kind: 'user', all: true },
  { key: 'ingest_socket_sustained_per_s', label: 'ingest socket sustained /s (p99 ≤ 50 ms, every repetition)', better: 'higher', kind: 'user', all: true },
  { key: 'server_rss_mb', label: 'fleet: server peak RSS MB', better: 'lower', kind: 'guard' },
  { key: 'socketio_vs_ws_cpu', label: 'CPU per delivery: Lifeline / raw ws', better: 'lower', kind: 'guard' },
];

/**
 * The ingest floor's figures (scripts/bench/ingestFloor.ts), aggregated like the others but not
 * compared: the floor is the same code on both sides of a --compare.
 */
export const FLOOR_FIGURES: readonly FigureSpec[] = [
  { key: 'ingest_floor_rest_sustained_per_s', label: 'ingest floor REST sustained /s (p99 ≤ 50 ms, every repetition)', better: 'higher', kind: 'user', all: true },
  { key: 'ingest_floor_socket_sustained_per_s', label: 'ingest floor socket sustained /s (p99 ≤ 50 ms, every repetition)', better: 'higher', kind: 'user', all: true },
  { key: 'ingest_floor_rest_cpu_us_per_position', label: 'ingest floor REST: server CPU µs per stored position (reference rate)', better: 'lower', kind: 'guard' },
  { key: 'ingest_floor_socket_cpu_us_per_position', label: 'ingest floor socket: server CPU µs per stored position (reference rate)', better: 'lower', kind: 'guard' },
  { key: 'ingest_rest_cpu_vs_floor', label: 'ingest REST CPU per stored position: Lifeline / floor', better: 'lower', kind: 'guard' },
  { key: 'ingest_socket_cpu_vs_floor', label: 'ingest socket CPU per stored position: Lifeline / floor', better: 'lower', kind: 'guard' },
];

/** Every named figure, compared or not. */
export const NAMED_FIGURES: readonly FigureSpec[] = [...FIGURES, ...FLOOR_FIGURES];

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function spread(values: readonly number[]): Spread | undefined {
  const v = values.filter(isNum).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median, min: v[0], max: v[v.length - 1], n: v.length };
}

/**
 * Every numeric top-level figure of the runs' headlines, as its spread. A figure marked `all`
 * reports its lowest value as the median too: it holds only where it held in every repetition.
 */
export function aggregate(runs: readonly Record<string, unknown>[]): Record<string, Spread> {
  const keys = new Set(runs.flatMap((r) => Object.keys(r).filter((k) => isNum(r[k]))));
  const out: Record<string, Spread> = {};
  for (const k of keys) {
    const s = spread(runs.map((r) => r[k]).filter(isNum));
    if (!s) continue;
    out[k] = NAMED_FIGURES.find((f) => f.key === k)?.all ? { ...s, median: s.min } : s;
  }
  return out;
}

export interface Comparison {
  spec: FigureSpec;
  base?: Spread;
  head?: Spread;
  /** head median / base median. */
  ratio: number | null;
  overlap: boolean | null;
  /** Ranges apart and head worse: a regression; ranges apart and head better: a gain. */
  verdict: 'regression' | 'gain' | 'noise' | 'n/a';
}

export function compare(base: Record<string, Spread>, head: Record<string, Spread>, specs: readonly FigureSpec[] = FIGURES): Comparison[] {
  return specs.map((spec) => {
    const b = base[spec.key];
    const h = head[spec.key];
    if (!b || !h) return { spec, base: b, head: h, ratio: null, overlap: null, verdict: 'n/a' };
    const ratio = b.median === 0 ? null : h.median / b.median;
    // A figure that must hold in every repetition shows its lowest run, but its runs still spread: the ranges decide.
    const overlap = h.min <= b.max && b.min <= h.max;
    const worse = spec.better === 'lower' ? h.median > b.median : h.median < b.median;
    return { spec, base: b, head: h, ratio, overlap, verdict: overlap ? 'noise' : worse ? 'regression' : 'gain' };
  });
}

/**
 * The order of 2 × n runs of two commits, interleaved so that a drift of the machine (heat,
 * another process) falls on both alike: A B B A A B B A …
 */
export function interleave(n: number): ('base' | 'head')[] {
  const order: ('base' | 'head')[] = [];
  for (let i = 0; i < n; i++) order.push(...(i % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const)));
  return order;
}

/**
 * The highest offered rate of a ladder at which the step held and every lower step held too:
 * one spike at a lower rate means the rate above it is not sustained either.
 */
export function sustainedRate(steps: readonly { offered_per_s: number; sustained: boolean }[]): number {
  let rate = 0;
  for (const s of [...steps].sort((a, b) => a.offered_per_s - b.offered_per_s)) {
    if (!s.sustained) break;
    rate = s.offered_per_s;
  }
  return rate;
}

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
export const showSpread = (s?: Spread) => (s ? `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})` : 'n/a');

/** The comparison as text rows: figure, base, head, ratio, verdict. */
export function comparisonTable(rows: readonly Comparison[], names: { base: string; head: string }): string {
  const lines: string[][] = [['figure', names.base, names.head, 'ratio', 'ranges']];
  for (const r of rows) {
    lines.push([
      `${r.spec.kind === 'guard' ? '[guard] ' : ''}${r.spec.label}`,
      showSpread(r.base), showSpread(r.head),
      r.ratio === null ? 'n/a' : `${r.ratio.toFixed(2)}×`,
      r.verdict === 'n/a' ? 'n/a' : r.verdict === 'noise' ? 'overlap' : `apart: ${r.verdict.toUpperCase()}`,
    ]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n');
}
