/**
 * Runs `fn` at most once per `everyMs`: at once after a quiet spell, otherwise once more at the
 * end of the window, so the last of a burst is never lost (a report refetched then sees it).
 */
export function throttle(fn: () => void, everyMs: number): { call: () => void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    last = Date.now();
    fn();
  };
  return {
    call() {
      if (timer) return;
      const wait = last + everyMs - Date.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
