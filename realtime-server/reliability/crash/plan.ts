/**
 * The crash loop's plan as a plain state machine: which step comes next, decided from the
 * step just done and the seeded random source alone. No I/O here: crashLoop.ts performs the
 * steps, and the same seed replays the same kills.
 */

export interface Prng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(xs: T[]): T;
}

/** A small seeded PRNG (mulberry32), so a failing loop can be replayed with --seed. */
export function prng(seed: number): Prng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min, max) => min + Math.floor(next() * (max - min + 1)), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}

export type CrashStep =
  /** Start the server on the file. */
  | { kind: 'boot'; cycle: number }
  /** kill -9 while it boots (migrations, outbox requeue, listen). */
  | { kind: 'killWhileBooting'; cycle: number; afterMs: number }
  /** Wait until it answers, then check everything acknowledged so far and retry what was in doubt. */
  | { kind: 'audit'; cycle: number }
  /** Put the write load on it and kill -9 it after `afterMs`. */
  | { kind: 'killUnderLoad'; cycle: number; afterMs: number }
  /** The last restart: retry what is in doubt, drain the outbox, check everything, stop gracefully. */
  | { kind: 'finish' }
  | { kind: 'done' };

/** Now and then (15 % of the cycles after the first) the kill comes while the server boots. */
const KILL_WHILE_BOOTING = 0.15;

export const firstStep = (cycles: number): CrashStep => (cycles > 0 ? { kind: 'boot', cycle: 1 } : { kind: 'finish' });

export function nextStep(step: CrashStep, cycles: number, rnd: Prng): CrashStep {
  switch (step.kind) {
    case 'boot':
      return step.cycle > 1 && rnd.next() < KILL_WHILE_BOOTING
        ? { kind: 'killWhileBooting', cycle: step.cycle, afterMs: rnd.int(100, 1500) }
        : { kind: 'audit', cycle: step.cycle };
    case 'audit':
      return { kind: 'killUnderLoad', cycle: step.cycle, afterMs: rnd.int(150, 1500) };
    case 'killWhileBooting':
    case 'killUnderLoad':
      return step.cycle < cycles ? { kind: 'boot', cycle: step.cycle + 1 } : { kind: 'finish' };
    case 'finish':
    case 'done':
      return { kind: 'done' };
  }
}
