import { setImmediate } from 'node:timers/promises';

/**
 * How long a heavy read (a report, an export page) may hold the event loop before it lets the
 * rest of the server run. Positions to viewers must keep p99 ≤ 250 ms while reports run (issue
 * 26); with REPORT_CONCURRENCY reads each taking a slice per turn, a turn is at most that many
 * budgets long.
 */
export const SLICE_BUDGET_MS = 5;
/**
 * A slice also ends after this many rows whatever the clock says: reading the clock every row
 * would cost more than the rows, and a fixed bound makes slices countable (tests, profiles).
 */
export const MAX_ROWS_PER_SLICE = 2000;
/** Rows between two looks at the clock (a power of two). */
const CLOCK_EVERY = 64;

/**
 * Watches between slices, for tests and profiles: the rows read so far and the read's signal.
 * A hook that waits holds the read there (a test keeps a report running while it asks for others).
 */
export const sliceHooks: { afterSlice?: (rows: number, signal: AbortSignal | undefined) => void | Promise<void> } = {};

/**
 * A read consumed in slices: `row()` after each row says whether the slice is over; then `next()`
 * gives the event loop a turn and stops the read (throwing the signal's reason) once its client has left.
 */
export class SlicedRead {
  rows = 0;
  private inSlice = 0;
  private started: number;
  constructor(private readonly signal?: AbortSignal, private readonly now: () => number = () => performance.now()) {
    signal?.throwIfAborted();
    this.started = now();
  }

  /** Counts a row; true when the slice should end here. */
  row(): boolean {
    this.rows++;
    if (++this.inSlice >= MAX_ROWS_PER_SLICE) return true;
    return (this.inSlice & (CLOCK_EVERY - 1)) === 0 && this.now() - this.started >= SLICE_BUDGET_MS;
  }

  /** Between slices: a turn of the event loop, then on (or the signal's reason thrown). */
  async next(): Promise<void> {
    await setImmediate();
    await sliceHooks.afterSlice?.(this.rows, this.signal);
    this.signal?.throwIfAborted();
    this.inSlice = 0;
    this.started = this.now();
  }

  /** Stops the read (throws) if its client has left; for reads whose slices are batches of their own (a cursor). */
  check(): void {
    this.signal?.throwIfAborted();
  }
}
