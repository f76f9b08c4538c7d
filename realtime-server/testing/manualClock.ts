import { sleep } from './wait';

/**
 * A clock that stands still until the test moves it: a one-second rate limit or a 2.5 s
 * timeout then takes milliseconds. Timers fire in the order they fall due.
 */
export function manualClock(start = Date.now()) {
  let now = start;
  const timers = new Set<{ at: number; fn: () => void }>();
  const next = () => [...timers].sort((a, b) => a.at - b.at)[0];
  function fireNext() {
    const t = next();
    if (!t) return;
    timers.delete(t);
    now = Math.max(now, t.at);
    t.fn();
  }
  /** `quiet()` held on two looks a few milliseconds apart: nothing real is still on its way. */
  async function isQuiet(quiet: () => boolean) {
    if (!quiet()) return false;
    await sleep(5);
    return quiet();
  }

  const clock = {
    now: () => now,
    after(ms: number, fn: () => void) {
      const t = { at: now + ms, fn };
      timers.add(t);
      return () => { timers.delete(t); };
    },
    /** Timers set and not yet fired or cancelled. */
    get pending() { return timers.size; },
    /** Moves time on by `ms`, firing the timers due on the way. */
    async advance(ms: number) {
      const until = now + ms;
      for (let t = next(); t && t.at <= until; t = next()) {
        fireNext();
        await sleep(1);
      }
      now = until;
    },
    /** Waits (in real time) until `quiet()` holds. */
    async settle(quiet: () => boolean) {
      while (!(await isQuiet(quiet))) await sleep(5);
    },
    /**
     * Settles `work`, moving time straight to the next timer whenever `quiet()` holds: every
     * request under way is parked on one of this clock's timers, none is busy elsewhere.
     */
    async runUntil<T>(work: Promise<T>, quiet: () => boolean): Promise<T> {
      let settled = false;
      const done = work.finally(() => { settled = true; });
      done.catch(() => undefined);
      while (!settled) {
        await sleep(5);
        if (!settled && (await isQuiet(quiet)) && !settled) fireNext();
      }
      return done;
    },
  };
  return clock;
}

export type ManualClock = ReturnType<typeof manualClock>;
