import { describe, expect, it } from 'vitest';
import { MAX_ROWS_PER_SLICE, SLICE_BUDGET_MS, SlicedRead } from './readSlices';

/** Where a read's slices end, on a clock the test moves (never the machine's speed). */
describe('SlicedRead', () => {
  it('ends a slice once its time budget is spent, looking at the clock every 64 rows', () => {
    let t = 0;
    const read = new SlicedRead(undefined, () => t);
    let rows = 0;
    // Each row "costs" 0.1 ms: the budget is spent after SLICE_BUDGET_MS / 0.1 rows, seen at the next multiple of 64.
    while (!read.row()) { rows++; t += 0.1; }
    const spentAt = Math.ceil(SLICE_BUDGET_MS / 0.1);
    expect(rows + 1).toBe(Math.ceil(spentAt / 64) * 64);
  });

  it('ends a slice after MAX_ROWS_PER_SLICE rows however fast they come', async () => {
    const read = new SlicedRead(undefined, () => 0);
    let ends = 0;
    for (let i = 0; i < MAX_ROWS_PER_SLICE * 3; i++) if (read.row()) { ends++; await read.next(); }
    expect(ends).toBe(3);
    expect(read.rows).toBe(MAX_ROWS_PER_SLICE * 3);
  });

  it('stops between slices once its signal aborts, with its reason', async () => {
    const ac = new AbortController();
    const read = new SlicedRead(ac.signal, () => 0);
    await read.next();
    ac.abort(new Error('gone'));
    await expect(read.next()).rejects.toThrow('gone');
  });
});
