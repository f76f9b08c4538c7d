import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { queries } from '../../api/queries';

/** How often live screens re-evaluate "Stale" (no refetch: only the clock moves). */
export const STALENESS_TICK_MS = 15_000;

// One clock for every screen: one timer while anything listens, none otherwise.
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    // Picked up by React's check right after subscribing: a screen opened after a pause starts current.
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, STALENESS_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, re-rendering the caller every ~15 s (for "Stale" marks). */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}

/** The average urban speed ETAs are estimated with (ETA_SPEED_KMH, from GET /api/config); undefined until loaded. */
export function useEtaSpeedKmh(): number | undefined {
  const { data } = useQuery(queries.config());
  const speed = data?.etaSpeedKmh;
  return typeof speed === 'number' && speed > 0 ? speed : undefined;
}
