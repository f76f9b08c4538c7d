/** Time as a service sees it: passed in, so that a test moves it instead of waiting for it. */
export interface Clock {
  now: () => number;
  /** Calls `fn` after `ms`; answers a function that cancels the call. */
  after: (ms: number, fn: () => void) => () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
