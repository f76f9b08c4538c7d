import { geocodeCacheRepository } from '../../db/repositories/geocodeCacheRepository';
import { geocodeSearchRepository } from '../../db/repositories/geocodeSearchRepository';
import { ADDRESS_SEARCH_UNAVAILABLE, type GeocodeResponse, type GeocodeSearchResponse, type GeocodeSearchResult, parseLocationText } from '../contract';
import { type Clock, systemClock } from './clock';
import type { ServiceContext } from './context';
import { DomainError } from './errors';

const UPSTREAM_TIMEOUT_MS = 2500;
/** After an upstream failure, answer from the fallback for this long instead of waiting again. */
const BACKOFF_MS = 60_000;
/** A request that would wait longer than this for its turn answers with the fallback. */
const MAX_QUEUE_WAIT_MS = 2000;
const MIN_INTERVAL_MS = 1000;
/** Half the side of the box address searches prefer around the centre: about 55 km, a city and its outskirts. */
const SEARCH_VIEWBOX_DEG = 0.5;
const SEARCH_LIMIT = 5;
const USER_AGENT = 'Lifeline-Dispatch/0.1 (ambulance dispatch; geocoding)';

export const cacheKey = (lat: number, lon: number) => `${lat.toFixed(5)},${lon.toFixed(5)}`;
export const fallbackName = (lat: number, lon: number) => `${lat}, ${lon}`;
/** One cache entry for the same words however they were typed. */
export const searchKey = (q: string) => q.trim().replace(/\s+/g, ' ').toLowerCase();

/** Nominatim's /search jsonv2 answer: an array of places, coordinates as strings. */
interface NominatimPlace { lat?: unknown; lon?: unknown; display_name?: unknown }

function toResults(body: unknown): GeocodeSearchResult[] {
  if (!Array.isArray(body)) throw new Error('geocoder answered a search with something other than a list');
  const results: GeocodeSearchResult[] = [];
  for (const place of body as NominatimPlace[]) {
    const latitude = Number(place?.lat);
    const longitude = Number(place?.lon);
    const name = typeof place?.display_name === 'string' ? place.display_name.trim() : '';
    // A place with no usable coordinates or name is skipped, not the whole answer.
    if (typeof place?.lat !== 'string' || typeof place?.lon !== 'string' || !name) continue;
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
    results.push({ displayName: name.slice(0, 500), latitude, longitude, source: 'address' });
  }
  return results.slice(0, SEARCH_LIMIT);
}

/**
 * Geocoding through a cache and a Nominatim-compatible upstream: place names for coordinates
 * (reverse) and places for typed text (search). Both share one queue, at most one upstream
 * request a second for the whole server (Nominatim's usage policy), and one backoff. Never
 * hangs: with no network or a busy queue reverse answers "lat, lon" and search answers 503.
 */
export function createGeocoder(ctx: ServiceContext, fetchImpl: typeof fetch = fetch, clock: Clock = systemClock) {
  let nextSlot = 0;
  let downUntil = 0;
  const inflight = new Map<string, Promise<unknown>>();
  /** Requests waiting for their turn; released at once when the upstream is found down. */
  const waiting = new Set<() => void>();

  const waitTurn = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => { cancel(); waiting.delete(done); resolve(); };
      const cancel = clock.after(ms, done);
      waiting.add(done);
    });

  /** Runs `work` once for concurrent callers with the same key. */
  function once<T>(key: string, work: () => Promise<T>): Promise<T> {
    let pending = inflight.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = work().finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  /**
   * One upstream request in its turn: `read` turns the JSON body into the answer. Undefined
   * when the geocoder is off, backing off, too busy, or fails (which starts the backoff).
   */
  async function upstream<T>(path: 'reverse' | 'search', params: Record<string, string>, read: (body: unknown) => T): Promise<T | undefined> {
    const url = ctx.config.geocoderUrl;
    if (!url || clock.now() < downUntil) return undefined;
    const now = clock.now();
    const slot = Math.max(now, nextSlot);
    if (slot - now > MAX_QUEUE_WAIT_MS) return undefined;
    nextSlot = slot + MIN_INTERVAL_MS;
    if (slot > now) await waitTurn(slot - now);
    // The upstream may have failed while this request waited: do not knock again.
    if (clock.now() < downUntil) return undefined;
    const timeout = new AbortController();
    const cancelTimeout = clock.after(UPSTREAM_TIMEOUT_MS, () => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    try {
      const q = new URL(`${url}/${path}`);
      q.searchParams.set('format', 'jsonv2');
      for (const [k, v] of Object.entries(params)) q.searchParams.set(k, v);
      const res = await fetchImpl(q, { headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' }, signal: timeout.signal });
      if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
      return read(await res.json());
    } catch (err) {
      downUntil = clock.now() + BACKOFF_MS;
      for (const release of [...waiting]) release();
      ctx.log.warn({ err: (err as Error).message, path }, 'geocoder unreachable; answering without it for a while');
      return undefined;
    } finally {
      cancelTimeout();
    }
  }

  const readName = (body: unknown) => {
    const name = (body as { display_name?: unknown } | null)?.display_name;
    return typeof name === 'string' && name ? name.slice(0, 500) : null;
  };

  /** Addresses near the centre first; bounded=0 still finds one outside the box. */
  function searchParams(q: string): Record<string, string> {
    const { latitude, longitude } = ctx.config.centre;
    const d = SEARCH_VIEWBOX_DEG;
    const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
    const viewbox = [longitude - d, clampLat(latitude + d), longitude + d, clampLat(latitude - d)].map((v) => String(Math.round(v * 1e6) / 1e6)).join(',');
    return { q, limit: String(SEARCH_LIMIT), viewbox, bounded: '0' };
  }

  return {
    async reverse(lat: number, lon: number): Promise<GeocodeResponse> {
      const key = cacheKey(lat, lon);
      const cached = await geocodeCacheRepository.get(ctx.db, key);
      if (cached) return { displayName: cached, cached: true };
      // The look-up, the upstream and the store are one piece of work: a caller arriving while it runs, or
      // just after (its cache miss read before the store), waits for it or finds the cache filled.
      const found = await once(`reverse:${key}`, async () => {
        const stored = await geocodeCacheRepository.get(ctx.db, key);
        if (stored) return { name: stored, cached: true };
        const name = await upstream('reverse', { lat: String(lat), lon: String(lon) }, readName);
        if (name) await geocodeCacheRepository.put(ctx.db, key, name);
        return { name, cached: false };
      });
      return found.name ? { displayName: found.name, cached: found.cached } : { displayName: fallbackName(lat, lon), cached: false };
    },

    /**
     * What typed text names: coordinates and plus codes locally (even with GEOCODER_URL=off),
     * anything else through the cache and the upstream's /search. Throws 503
     * ADDRESS_SEARCH_UNAVAILABLE when an address needs the upstream and it cannot answer.
     */
    async search(text: string): Promise<GeocodeSearchResponse> {
      const local = parseLocationText(text, ctx.config.centre);
      if (local) return { results: [local] };
      const key = searchKey(text);
      const cached = await geocodeSearchRepository.get(ctx.db, key);
      if (cached) return { results: JSON.parse(cached) as GeocodeSearchResult[] };
      // As in reverse: the same search asked meanwhile shares this work or finds its stored answer.
      const results = await once(`search:${key}`, async () => {
        const stored = await geocodeSearchRepository.get(ctx.db, key);
        if (stored) return JSON.parse(stored) as GeocodeSearchResult[];
        const found = await upstream('search', searchParams(text.trim()), toResults);
        if (found) await geocodeSearchRepository.put(ctx.db, key, JSON.stringify(found));
        return found;
      });
      if (!results) throw new DomainError(503, ADDRESS_SEARCH_UNAVAILABLE);
      return { results };
    },
  };
}

export type Geocoder = ReturnType<typeof createGeocoder>;
