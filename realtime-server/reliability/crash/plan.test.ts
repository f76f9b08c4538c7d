import { describe, expect, it } from 'vitest';
import { type CrashStep, firstStep, nextStep, prng } from './plan';

/** The steps of a whole loop, as the driver walks them. */
function walk(cycles: number, seed: number): CrashStep[] {
  const rnd = prng(seed);
  const steps: CrashStep[] = [];
  for (let step = firstStep(cycles); step.kind !== 'done'; step = nextStep(step, cycles, rnd)) steps.push(step);
  return steps;
}

describe('the crash loop plan', () => {
  it('boots every cycle, kills it once per cycle (under load, or while it boots after the first) and ends with one finish', () => {
    const steps = walk(40, 7);
    const kills = steps.filter((s) => s.kind === 'killUnderLoad' || s.kind === 'killWhileBooting');
    expect(steps.filter((s) => s.kind === 'boot').map((s) => (s as { cycle: number }).cycle)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(kills).toHaveLength(40);
    expect(steps[1]).toEqual({ kind: 'audit', cycle: 1 });
    expect(steps.some((s) => s.kind === 'killWhileBooting')).toBe(true);
    expect(steps.at(-1)).toEqual({ kind: 'finish' });
    for (const k of kills) expect((k as { afterMs: number }).afterMs).toBeGreaterThanOrEqual(100);
  });

  it('replays the same kills from the same seed', () => {
    expect(walk(20, 42)).toEqual(walk(20, 42));
    expect(walk(20, 42)).not.toEqual(walk(20, 43));
  });

  it('with no cycles, only the final restart', () => {
    expect(walk(0, 1)).toEqual([{ kind: 'finish' }]);
  });
});
