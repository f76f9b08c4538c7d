import { geocodeCacheRepository } from '../../db/repositories/geocodeCacheRepository';
import { geocodeSearchRepository } from '../../db/repositories/geocodeSearchRepository';
import { ADDRESS_SEARCH_SUPERSEDED, ADDRESS_SEARCH_UNAVAILABLE, type GeocodeResponse, type GeocodeSearchResponse, type GeocodeSearchResult, parseLocationText } from '../contract';
import { type Clock, systemClock } from './clock';
import type { ServiceContext } from './context';
import { DomainError } from './errors';
import { createFairSlot, type SlotTicket } from './geocodeSlot';

const UPSTREAM_TIMEOUT_MS = 2500;
/** After an upstream failure, answer from the fallback for this long instead of waiting again. */
const BACKOFF_MS = 60_000;
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

/** Who is asking: turns at the upstream are shared out per user; a request whose client left is dropped. */
export interface Asker { user: string; signal?: AbortSignal }
/** The server's own look-ups, one user among the others. */
const SERVER: Asker = { user: 'server' };

/** Why a request got no answer from the upstream: it was off, failing or too busy, replaced by its user's newer search, or its client left. */
type Refusal = 'busy' | 'down' | 'superseded' | 'gone';
type Outcome<T> = { value: T } | { refused: Refusal };

/** One upstream look-up, shared by everyone asking for the same thing while it runs; it holds its first asker's place in line. */
interface Job { user: string; askers: Set<object>; ticket?: SlotTicket; started: boolean; cancelled: boolean }
interface Interest<T> { outcome: Promise<Outcome<T>>; withdraw(why: Refusal): void }
interface Searching { key: string; superseded: boolean; interest?: Interest<unknown> }

/**
 * Geocoding through a cache and a Nominatim-compatible upstream: place names for coordinates
 * (reverse) and places for typed text (search). Both share one slot, at most one upstream
 * request a second per node (Nominatim's usage policy), handed out round-robin between users
 * (geocodeSlot.ts), and one backoff. A request waits for its turn at most
 * GEOCODER_WAIT_SECONDS; a user's newer search replaces their older one still waiting, and a
 * request whose client left gives its place up. Never hangs: with no geocoder, or no turn within
 * the bound, reverse answers "lat, lon" and search answers 503. Cache hits never wait.
 */
export function createGeocoder(ctx: ServiceContext, fetchImpl: typeof fetch = fetch, clock: Clock = systemClock) {
  let downUntil = 0;
  const slot = createFairSlot(clock, { intervalMs: MIN_INTERVAL_MS, ...ctx.config.geocoderQueue });
  const jobs = new Map<string, { job: Job; done: Promise<Outcome<unknown>> }>();
  /** Each user's address searches under way: a newer one with other words supersedes them. */
  const searching = new Map<string, Set<Searching>>();

  /** Joins (or starts) the look-up of `key` for `asker`; `work` runs once for everyone asking meanwhile. */
  function share<T>(key: string, asker: Asker, work: (job: Job) => Promise<Outcome<T>>): Interest<T> {
    let entry = jobs.get(key);
    if (!entry) {
      const job: Job = { user: asker.user, askers: new Set(), started: false, cancelled: false };
      const done = work(job).finally(() => { if (jobs.get(key)?.job === job) jobs.delete(key); });
      entry = { job, done };
      jobs.set(key, entry);
    }
    const { job, done } = entry;
    const me = {};
    let resolve!: (o: Outcome<T>) => void;
    let reject!: (err: unknown) => void;
    const outcome = new Promise<Outcome<T>>((res, rej) => { resolve = res; reject = rej; });
    const leave = () => {
      if (!job.askers.delete(me)) return false;
      asker.signal?.removeEventListener('abort', gone);
      return true;
    };
    const withdraw = (why: Refusal) => {
      // A search already at the upstream is as good as answered: only one still waiting is superseded.
      if (why === 'superseded' && job.started) return;
      if (!leave()) return;
      resolve({ refused: why });
      // Nobody else wants it and the upstream has not been asked: give the place in line up.
      if (job.askers.size || job.started) return;
      job.cancelled = true;
      if (jobs.get(key)?.job === job) jobs.delete(key);
      job.ticket?.leave();
    };
    const gone = () => withdraw('gone');
    job.askers.add(me);
    asker.signal?.addEventListener('abort', gone);
    (done as Promise<Outcome<T>>).then((o) => { if (leave()) resolve(o); }, (err: unknown) => { if (leave()) reject(err); });
    if (asker.signal?.aborted) gone();
    return { outcome, withdraw };
  }

  /**
   * When a refused search may be asked again: a turn that could not come within the wait, after
   * about that wait; a failing upstream, when its backoff ends. Off: never (no Retry-After).
   */
  function retryAfterS(why: Refusal): number | undefined {
    if (why === 'busy') return ctx.config.geocoderQueue.maxWaitMs / 1000;
    if (why === 'down' && ctx.config.geocoderUrl && downUntil > clock.now()) return (downUntil - clock.now()) / 1000;
    return undefined;
  }

  /** Waits for the job's turn, then asks the upstream; `read` turns the JSON body into the answer. */
  async function askInTurn<T>(job: Job, path: 'reverse' | 'search', params: Record<string, string>, read: (body: unknown) => T): Promise<Outcome<T>> {
    if (!ctx.config.geocoderUrl || clock.now() < downUntil) return { refused: 'down' };
    if (job.cancelled) return { refused: 'gone' };
    job.ticket = slot.join(job.user);
    const turn = await job.ticket.turn;
    if (turn === 'left' || job.cancelled) return { refused: 'gone' };
    if (turn !== 'go') return { refused: turn };
    // The upstream may have failed while this request waited: do not knock again.
    if (clock.now() < downUntil) return { refused: 'down' };
    job.started = true;
    const value = await upstream(path, params, read);
    return value === undefined ? { refused: 'down' } : { value };
  }

  /** One upstream request: undefined when it fails, which starts the backoff and releases everyone waiting. */
  async function upstream<T>(path: 'reverse' | 'search', params: Record<string, string>, read: (body: unknown) => T): Promise<T | undefined> {
    const timeout = new AbortController();
    const cancelTimeout = clock.after(UPSTREAM_TIMEOUT_MS, () => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    try {
      const q = new URL(`${ctx.config.geocoderUrl}/${path}`);
      q.searchParams.set('format', 'jsonv2');
      for (const [k, v] of Object.entries(params)) q.searchParams.set(k, v);
      const res = await fetchImpl(q, { headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' }, signal: timeout.signal });
      if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
      return read(await res.json());
    } catch (err) {
      downUntil = clock.now() + BACKOFF_MS;
      slot.releaseAll();
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
    async reverse(lat: number, lon: number, asker: Asker = SERVER): Promise<GeocodeResponse> {
      const key = cacheKey(lat, lon);
      const cached = await geocodeCacheRepository.get(ctx.db, key);
      if (cached) return { displayName: cached, cached: true };
      // The look-up, the upstream and the store are one piece of work: a caller arriving while it runs, or
      // just after (its cache miss read before the store), waits for it or finds the cache filled.
      const found = await share(`reverse:${key}`, asker, async (job) => {
        const stored = await geocodeCacheRepository.get(ctx.db, key);
        if (stored) return { value: { name: stored, cached: true } };
        const asked = await askInTurn(job, 'reverse', { lat: String(lat), lon: String(lon) }, readName);
        if (!('value' in asked)) return asked;
        if (asked.value) await geocodeCacheRepository.put(ctx.db, key, asked.value);
        return { value: { name: asked.value, cached: false } };
      }).outcome;
      return 'value' in found && found.value.name ? { displayName: found.value.name, cached: found.value.cached } : { displayName: fallbackName(lat, lon), cached: false };
    },

    /**
     * What typed text names: coordinates and plus codes locally (even with GEOCODER_URL=off),
     * anything else through the cache and the upstream's /search. Throws 503
     * ADDRESS_SEARCH_UNAVAILABLE when an address needs the upstream and it cannot answer in
     * time, 409 ADDRESS_SEARCH_SUPERSEDED when the same user searched for other words meanwhile.
     */
    async search(text: string, asker: Asker = SERVER): Promise<GeocodeSearchResponse> {
      const local = parseLocationText(text, ctx.config.centre);
      const key = searchKey(text);
      // On arrival, before any wait: the user has moved on from any other words still waiting.
      const mine: Searching = { key, superseded: false };
      const theirs = searching.get(asker.user) ?? new Set<Searching>();
      for (const older of theirs) {
        if (older.key === key || older.superseded) continue;
        older.superseded = true;
        older.interest?.withdraw('superseded');
      }
      theirs.add(mine);
      searching.set(asker.user, theirs);
      try {
        if (local) return { results: [local] };
        const cached = await geocodeSearchRepository.get(ctx.db, key);
        if (cached) return { results: JSON.parse(cached) as GeocodeSearchResult[] };
        // A newer search with other words arrived while this one read the cache.
        if (mine.superseded) throw new DomainError(409, ADDRESS_SEARCH_SUPERSEDED);
        // As in reverse: the same search asked meanwhile shares this work or finds its stored answer.
        const interest = share(`search:${key}`, asker, async (job) => {
          const stored = await geocodeSearchRepository.get(ctx.db, key);
          if (stored) return { value: JSON.parse(stored) as GeocodeSearchResult[] };
          const asked = await askInTurn(job, 'search', searchParams(text.trim()), toResults);
          if ('value' in asked) await geocodeSearchRepository.put(ctx.db, key, JSON.stringify(asked.value));
          return asked;
        });
        mine.interest = interest;
        const found = await interest.outcome;
        if ('value' in found) return { results: found.value };
        if (found.refused === 'superseded') throw new DomainError(409, ADDRESS_SEARCH_SUPERSEDED);
        throw new DomainError(503, ADDRESS_SEARCH_UNAVAILABLE, retryAfterS(found.refused));
      } finally {
        theirs.delete(mine);
        if (!theirs.size && searching.get(asker.user) === theirs) searching.delete(asker.user);
      }
    },
  };
}

export type Geocoder = ReturnType<typeof createGeocoder>;
