import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

it('runs the first call at once, a burst once more at the end of the window, and nothing after cancel', () => {
  const fn = vi.fn();
  const t = throttle(fn, 5000);
  t.call();
  expect(fn).toHaveBeenCalledTimes(1);
  t.call();
  t.call();
  vi.advanceTimersByTime(4999);
  expect(fn).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(1);
  expect(fn).toHaveBeenCalledTimes(2);
  // A quiet spell past the window: the next call runs at once again.
  vi.advanceTimersByTime(6000);
  t.call();
  expect(fn).toHaveBeenCalledTimes(3);
  t.call();
  t.cancel();
  vi.advanceTimersByTime(10_000);
  expect(fn).toHaveBeenCalledTimes(3);
});
