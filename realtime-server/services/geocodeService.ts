import { geocodeCacheRepository } from '../../db/repositories/geocodeCacheRepository';
import type { GeocodeResponse } from '../contract';
import { type Clock, systemClock } from './clock';
import type { ServiceContext } from './context';

const UPSTREAM_TIMEOUT_MS = 2500;
/** After an upstream failure, answer from the fallback for this long instead of waiting again. */
const BACKOFF_MS = 60_000;
/** A request that would wait longer than this for its turn answers with the fallback. */
const MAX_QUEUE_WAIT_MS = 2000;
const MIN_INTERVAL_MS = 1000;

export const cacheKey = (lat: number, lon: number) => `${lat.toFixed(5)},${lon.toFixed(5)}`;
export const fallbackName = (lat: number, lon: number) => `${lat}, ${lon}`;

/**
 * Reverse geocoding through a cache and a Nominatim-compatible upstream, at most one upstream
 * request a second for the whole server (Nominatim's usage policy). Never hangs: with no
 * network or a busy queue it answers "lat, lon" at once.
 */
export function createGeocoder(ctx: ServiceContext, fetchImpl: typeof fetch = fetch, clock: Clock = systemClock) {
  let nextSlot = 0;
  let downUntil = 0;
  const inflight = new Map<string, Promise<string | null>>();
  /** Requests waiting for their turn; released at once when the upstream is found down. */
  const waiting = new Set<() => void>();

  const waitTurn = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => { cancel(); waiting.delete(done); resolve(); };
      const cancel = clock.after(ms, done);
      waiting.add(done);
    });

  async function upstream(lat: number, lon: number): Promise<string | null> {
    const url = ctx.config.geocoderUrl;
    if (!url || clock.now() < downUntil) return null;
    const now = clock.now();
    const slot = Math.max(now, nextSlot);
    if (slot - now > MAX_QUEUE_WAIT_MS) return null;
    nextSlot = slot + MIN_INTERVAL_MS;
    if (slot > now) await waitTurn(slot - now);
    // The upstream may have failed while this request waited: do not knock again.
    if (clock.now() < downUntil) return null;
    const timeout = new AbortController();
    const cancelTimeout = clock.after(UPSTREAM_TIMEOUT_MS, () => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    try {
      const q = new URL(`${url}/reverse`);
      q.searchParams.set('format', 'jsonv2');
      q.searchParams.set('lat', String(lat));
      q.searchParams.set('lon', String(lon));
      const res = await fetchImpl(q, {
        headers: { 'User-Agent': 'Lifeline-Dispatch/0.1 (ambulance dispatch; reverse geocoding)', Accept: 'application/json' },
        signal: timeout.signal,
      });
      if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
      const body = (await res.json()) as { display_name?: unknown };
      return typeof body.display_name === 'string' && body.display_name ? body.display_name.slice(0, 500) : null;
    } catch (err) {
      downUntil = clock.now() + BACKOFF_MS;
      for (const release of [...waiting]) release();
      ctx.log.warn({ err: (err as Error).message }, 'reverse geocoder unreachable; answering coordinates for a while');
      return null;
    } finally {
      cancelTimeout();
    }
  }

  return {
    async reverse(lat: number, lon: number): Promise<GeocodeResponse> {
      const key = cacheKey(lat, lon);
      const cached = await geocodeCacheRepository.get(ctx.db, key);
      if (cached) return { displayName: cached, cached: true };
      let pending = inflight.get(key);
      if (!pending) {
        pending = upstream(lat, lon).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      const name = await pending;
      if (!name) return { displayName: fallbackName(lat, lon), cached: false };
      await geocodeCacheRepository.put(ctx.db, key, name);
      return { displayName: name, cached: false };
    },
  };
}

export type Geocoder = ReturnType<typeof createGeocoder>;
