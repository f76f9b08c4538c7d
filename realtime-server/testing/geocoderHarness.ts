import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ManualClock, manualClock } from './manualClock';
import { afterAll, beforeAll } from 'vitest';
import { type ApiResult, type TestServer, useTestServer } from './testServer';

/** A port nothing listens on. */
export async function closedPort() {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** What the harness needs of a test's stand-in geocoder: where it listens, and whether it hangs. */
export interface StandInGeocoder { url: string; state: { mode: string } }

/**
 * A test server whose geocoder asks `up()` on a manual clock. `ask` counts the requests under
 * way and `fetchImpl` the upstream answers on their way back (a hanging upstream's never come),
 * so that `quiet()` knows when time may move: every request is parked on one of the clock's timers
 * (one each: a place in line, or an upstream request's timeout). Requests that share one
 * look-up (the same words at once) share its timer: ask them with `s.api`, not `ask`.
 * `env` adds to the server's environment (GEOCODER_WAIT_SECONDS, GEOCODER_QUEUE_MAX).
 */
export function geocoderOnClock(up: () => StandInGeocoder, env: Record<string, string> = {}) {
  const clock: ManualClock = manualClock();
  let asking = 0;
  let answering = 0;
  const fetchImpl = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (up().state.mode === 'hang') return fetch(input, init);
    answering += 1;
    try {
      const res = await fetch(input, init);
      return new Response(await res.text(), res);
    } finally {
      answering -= 1;
    }
  }) as typeof fetch;
  const s = useTestServer(() => ({ env: { GEOCODER_URL: up().url, ...env }, fetchImpl, clock }));
  return {
    s,
    clock,
    /** GET `path` as `token`'s user; with `signal`, the client can leave before its answer (the promise then rejects). */
    ask(path: string, token: string, signal?: AbortSignal): Promise<ApiResult> {
      asking += 1;
      const answer = signal
        ? fetch(s.url + path, { headers: { authorization: `Bearer ${token}` }, signal }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }))
        : s.api('GET', path, { token });
      return answer.finally(() => { asking -= 1; });
    },
    quiet: () => answering === 0 && clock.pending === asking,
  };
}

/** A test server whose geocoder records every upstream call it makes in `calls`. */
export function recordingServer(geocoderUrl: () => string | Promise<string>) {
  const calls: string[] = [];
  const fetchImpl = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => { calls.push(input instanceof Request ? input.url : input.toString()); return fetch(input, init); }) as typeof fetch;
  const s = useTestServer(async () => ({ env: { GEOCODER_URL: await geocoderUrl() }, fetchImpl }));
  return { s, calls };
}

interface Seen { at: number; url: URL; headers: http.IncomingHttpHeaders }

/** How the stand-in answers: as Nominatim does, never, with 500, or (/reverse) with Nominatim's "no name here". */
export type StandInMode = 'answer' | 'hang' | 'fail' | 'no-name';

/**
 * A local stand-in for Nominatim: /search answers `places[q]` (or []), /reverse a name for its
 * point, each request recorded at `clock`'s time; `mode` decides how it answers.
 */
export async function startNominatimStandIn(clock: { now(): number } = Date, places: Record<string, object[]> = {}) {
  const seen: Seen[] = [];
  const state = { mode: 'answer' as StandInMode };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://nominatim.test');
    seen.push({ at: clock.now(), url, headers: req.headers });
    if (state.mode === 'hang') return; // never answers
    if (state.mode === 'fail') { res.statusCode = 500; return res.end('Internal Server Error'); }
    res.setHeader('content-type', 'application/json');
    if (state.mode === 'no-name' && url.pathname === '/reverse') return res.end(JSON.stringify({ error: 'Unable to geocode' }));
    if (url.pathname === '/reverse') return res.end(JSON.stringify({ place_id: 1, display_name: `Place at ${url.searchParams.get('lat')}/${url.searchParams.get('lon')}` }));
    if (url.pathname !== '/search') { res.statusCode = 404; return res.end('[]'); }
    res.end(JSON.stringify(places[url.searchParams.get('q')!.toLowerCase()] ?? []));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    state,
    searches: () => seen.filter((r) => r.url.pathname === '/search'),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
export type NominatimStandIn = Awaited<ReturnType<typeof startNominatimStandIn>>;

/**
 * For the enclosing describe block: a stand-in geocoder (started in `mode` before its tests,
 * closed after them) and a test server asking it on a manual clock (geocoderOnClock). `up`
 * stands for the stand-in once it has started, as `s` does for the server.
 */
export function standInOnClock(opts: { mode?: StandInMode; places?: Record<string, object[]>; env?: Record<string, string> } = {}) {
  let up: NominatimStandIn | undefined;
  // Declared before the server's hooks: its options read the stand-in's URL.
  beforeAll(async () => {
    up = await startNominatimStandIn(geo.clock, opts.places);
    up.state.mode = opts.mode ?? 'answer';
  });
  afterAll(() => up?.close());
  const geo = geocoderOnClock(() => up!, opts.env);
  const standIn = new Proxy({} as NominatimStandIn, {
    get(_target, key) {
      if (!up) throw new Error(`standInOnClock: the stand-in is read (.${String(key)}) outside its describe block's tests and hooks`);
      return Reflect.get(up, key, up);
    },
  });
  return { ...geo, up: standIn };
}

/** Sessions of `n` different staff members: the demo operator and `n - 1` operators the admin adds. */
export async function staffTokens(s: TestServer, n: number): Promise<string[]> {
  const admin = await s.signIn('admin');
  const tokens = [await s.signIn('operator')];
  for (let i = 1; i < n; i++) {
    const who = { email: `dispatcher${i}@lifeline.test`, username: `Dispatcher ${i}`, phone: `555 08${String(i).padStart(2, '0')}` };
    const res = await s.api('POST', '/api/users', { token: admin, body: { name: who.username, email: who.email, phone: who.phone, shift: 1, gender: 0 } });
    if (res.status !== 201) throw new Error(`adding a dispatcher failed: ${res.status} ${JSON.stringify(res.body)}`);
    tokens.push(await s.signIn(who));
  }
  return tokens;
}
