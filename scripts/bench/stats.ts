/** Percentiles over raw samples (nearest rank). */
export function summarize(samples: ArrayLike<number>) {
  const a = Float64Array.from(samples).sort();
  const at = (q: number) => (a.length === 0 ? NaN : a[Math.min(a.length - 1, Math.max(0, Math.ceil(q * a.length) - 1))]);
  let sum = 0;
  for (const v of a) sum += v;
  return { n: a.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: a.length ? a[a.length - 1] : NaN, mean: a.length ? sum / a.length : NaN };
}
export type Summary = ReturnType<typeof summarize>;

export const round = (v: number, digits = 1) => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : null);
