import { useSyncExternalStore } from 'react';
import { serverNow } from '../../api/serverClock';

const serverOffset = () => serverNow() - Date.now();

/** How often live screens re-evaluate "Stale" (no refetch: only the clock moves). */
export const STALENESS_TICK_MS = 15_000;

interface Clock {
  now: number;
  timer: ReturnType<typeof setInterval> | undefined;
  listeners: Set<() => void>;
  /** Stable, so React does not resubscribe (and restart the clock) on every render. */
  subscribe: (listener: () => void) => () => void;
  read: () => number;
}

// One clock per period for every screen: one timer while anything listens, none otherwise.
const clocks = new Map<number, Clock>();

function clockOf(everyMs: number): Clock {
  let clock = clocks.get(everyMs);
  if (!clock) {
    const created: Clock = {
      now: Date.now(),
      timer: undefined,
      listeners: new Set(),
      subscribe: (listener) => subscribe(created, everyMs, listener),
      read: () => created.now,
    };
    clocks.set(everyMs, created);
    clock = created;
  }
  return clock;
}

function subscribe(clock: Clock, everyMs: number, listener: () => void) {
  clock.listeners.add(listener);
  if (!clock.timer) {
    // Picked up by React's check right after subscribing: a screen opened after a pause starts current.
    clock.now = Date.now();
    clock.timer = setInterval(() => {
      clock.now = Date.now();
      for (const l of clock.listeners) l();
    }, everyMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0 && clock.timer) {
      clearInterval(clock.timer);
      clock.timer = undefined;
    }
  };
}

/**
 * The current time, re-rendering the caller every `everyMs` (for "Stale" marks on a page
 * left open). Plain React: the public track page (Preact, no MUI) uses it too.
 */
export function useNow(everyMs = STALENESS_TICK_MS): number {
  const clock = clockOf(everyMs);
  return useSyncExternalStore(clock.subscribe, clock.read, clock.read);
}

/** The server's current time (api/serverClock.ts), re-rendering every `everyMs`: for the call clocks on the boards. */
export function useServerNow(everyMs = 1000): number {
  return useNow(everyMs) + serverOffset();
}
