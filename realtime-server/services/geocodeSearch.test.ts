import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_SEARCH_UNAVAILABLE } from '../contract';
import { closedPort, type NominatimStandIn, recordingServer, standInOnClock, startNominatimStandIn as startStandIn } from '../testing/geocoderHarness';
import { useTestServer } from '../testing/testServer';

/**
 * GET /api/geocode/search: coordinates and plus codes understood locally (no network, even with
 * GEOCODER_URL=off), addresses through a cache and the geocoder's /search, which shares the
 * reverse geocoder's one-request-a-second queue and backoff. Where time is the subject the
 * server's geocoder runs on a manual clock (manualClock.ts), as in geocodeService.test.ts.
 */

/** Places the stand-in knows, as Nominatim's /search?format=jsonv2 documents them (coordinates as strings). */
const PLACES: Record<string, object[]> = {
  charminar: [
    {
      place_id: 134527, licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright', osm_type: 'way', osm_id: 26983718,
      lat: '17.3615636', lon: '78.4746645', category: 'historic', type: 'monument', place_rank: 30, importance: 0.52,
      addresstype: 'historic', name: 'Charminar', display_name: 'Charminar, Charminar Road, Hyderabad, Telangana, 500002, India',
      boundingbox: ['17.3614', '17.3617', '78.4745', '78.4748'],
    },
    {
      place_id: 99, licence: 'Data © OpenStreetMap contributors', osm_type: 'node', osm_id: 5, lat: '17.3620000', lon: '78.4750000',
      category: 'highway', type: 'bus_stop', place_rank: 30, importance: 0.1, addresstype: 'highway', name: 'Charminar Bus Stop',
      display_name: 'Charminar Bus Stop, Hyderabad, Telangana, India', boundingbox: ['17.3619', '17.3621', '78.4749', '78.4751'],
    },
    // Broken entries an upstream might send: skipped, not the whole answer.
    { place_id: 7, lat: 'north', lon: '78.1', display_name: 'No latitude' },
    { place_id: 8, lat: '17.1', lon: '78.1' },
  ],
};

type StandIn = NominatimStandIn;
const startNominatimStandIn = (clock?: { now(): number }) => startStandIn(clock, PLACES);

const search = (q: string) => `/api/geocode/search?q=${encodeURIComponent(q)}`;
const UNAVAILABLE = { status: 503, body: { error: ADDRESS_SEARCH_UNAVAILABLE } };

describe('with GEOCODER_URL off', () => {
  const { s, calls } = recordingServer(() => 'off');
  let token: string;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('understands coordinates without any network', async () => {
    const res = await s.api('GET', search('17.385, 78.4867'), { token });
    expect(res).toMatchObject({ status: 200, body: { results: [{ displayName: '17.385, 78.4867', latitude: 17.385, longitude: 78.4867, source: 'coordinates' }] } });
    expect((await s.api('GET', search('33.8688 S 151.2093 E'), { token })).body.results).toEqual([
      { displayName: '-33.8688, 151.2093', latitude: -33.8688, longitude: 151.2093, source: 'coordinates' },
    ]);
    expect(calls).toEqual([]);
  });

  it('understands full and short plus codes (the short one from CENTRE_LOCATION) without any network', async () => {
    const full = await s.api('GET', search('7J9WCC2P+VV'), { token });
    expect(full).toMatchObject({ status: 200, body: { results: [{ displayName: '7J9WCC2P+VV', latitude: 17.402188, longitude: 78.437187, source: 'plus_code' }] } });
    const short = await s.api('GET', search('CC2P+VV Hyderabad'), { token });
    expect(short.body).toEqual({ results: [{ displayName: '7J9WCC2P+VV Hyderabad', latitude: 17.402188, longitude: 78.437187, source: 'plus_code' }] });
    expect(calls).toEqual([]);
  });

  it('answers an address with 503 and the words to say, calling nobody and storing nothing', async () => {
    const res = await s.api('GET', search('Charminar'), { token });
    expect(res).toMatchObject(UNAVAILABLE);
    expect(res.body.error).toBe('address search is unavailable; enter coordinates, a plus code or drop a pin');
    // Off is off: no time to come back at.
    expect(res.headers.get('retry-after')).toBeNull();
    // Out-of-range coordinates are not coordinates: an address the geocoder would have to find.
    expect(await s.api('GET', search('91, 10'), { token })).toMatchObject(UNAVAILABLE);
    expect(calls).toEqual([]);
    expect(await s.ctx.db('geocode_searches').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('validates q with 400: missing, empty, blank, too long, control characters', async () => {
    for (const q of ['', '?q=', '?q=%20%20', `?q=${'a'.repeat(301)}`, '?q=a%00b', '?q=a%0Ab']) {
      const res = await s.api('GET', `/api/geocode/search${q}`, { token });
      expect({ q, status: res.status, body: res.body }).toEqual({ q, status: 400, body: { error: expect.stringMatching(/^q: /) } });
    }
  });

  it('is for staff: 401 without a session', async () => {
    expect((await s.api('GET', search('17.385, 78.4867'))).status).toBe(401);
  });
});

describe('with a working geocoder', () => {
  let token: string;
  const geo = standInOnClock({ places: PLACES });
  const { s, up } = geo;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('sends an address to /search biased to the centre, and answers its places as addresses', async () => {
    const res = await s.api('GET', search('Charminar'), { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { displayName: 'Charminar, Charminar Road, Hyderabad, Telangana, 500002, India', latitude: 17.3615636, longitude: 78.4746645, source: 'address' },
        { displayName: 'Charminar Bus Stop, Hyderabad, Telangana, India', latitude: 17.362, longitude: 78.475, source: 'address' },
      ],
    });
    expect(up.seen).toHaveLength(1);
    const { url, headers } = up.seen[0];
    expect(url.pathname).toBe('/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'jsonv2', q: 'Charminar', limit: '5', bounded: '0',
      // left, top, right, bottom around CENTRE_LOCATION's default 17.385,78.4867
      viewbox: '77.9867,17.885,78.9867,16.885',
    });
    expect(headers['user-agent']).toMatch(/^Lifeline/);
  });

  it('answers the same search again from the cache, however it is spaced or cased, without asking upstream', async () => {
    const seen = up.seen.length;
    const again = await s.api('GET', search('  charminar '), { token });
    expect(again.status).toBe(200);
    expect(again.body.results.map((r: { displayName: string }) => r.displayName)).toEqual([
      'Charminar, Charminar Road, Hyderabad, Telangana, 500002, India', 'Charminar Bus Stop, Hyderabad, Telangana, India',
    ]);
    expect(up.seen.length).toBe(seen);
    expect(await s.ctx.db('geocode_searches').pluck('query')).toEqual(['charminar']);
  });

  it('answers 200 with no results when the geocoder finds nothing, and caches that too', async () => {
    await geo.clock.advance(1100);
    const seen = up.searches().length;
    expect(await s.api('GET', search('Nowhere Street 999'), { token })).toMatchObject({ status: 200, body: { results: [] } });
    expect(await s.api('GET', search('nowhere street 999'), { token })).toMatchObject({ status: 200, body: { results: [] } });
    expect(up.searches().length).toBe(seen + 1);
  });

  it('never asks upstream for coordinates or a plus code', async () => {
    await geo.clock.advance(1100);
    const seen = up.seen.length;
    expect((await s.api('GET', search('17.4, 78.5'), { token })).body.results[0].source).toBe('coordinates');
    expect((await s.api('GET', search('CC2P+VV'), { token })).body.results[0].source).toBe('plus_code');
    expect(up.seen.length).toBe(seen);
  });

  it("spaces two dispatchers' searches a second apart: the second waits for its slot", async () => {
    await geo.clock.advance(1100);
    const seen = up.seen.length;
    // Two users: one user's second search would supersede their first (geocodeFairness.test.ts).
    const other = await s.signIn('admin');
    const answers = await geo.clock.runUntil(Promise.all([geo.ask(search('First Street'), token), geo.ask(search('Second Street'), other)]), geo.quiet);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const asked = up.seen.slice(seen);
    expect(asked.map((a) => a.url.searchParams.get('q')).sort()).toEqual(['First Street', 'Second Street']);
    expect(asked[1].at - asked[0].at).toBeGreaterThanOrEqual(1000);
  });

  it('shares the one-a-second queue with the reverse geocoder', async () => {
    await geo.clock.advance(1100);
    const seen = up.seen.length;
    const answers = await geo.clock.runUntil(Promise.all([
      geo.ask('/api/geocode/reverse?lat=17.11&lon=78.11', token),
      geo.ask(search('Third Street'), token),
      geo.ask('/api/geocode/reverse?lat=17.12&lon=78.12', token),
    ]), geo.quiet);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const asked = up.seen.slice(seen);
    expect(asked.map((a) => a.url.pathname).sort()).toEqual(['/reverse', '/reverse', '/search']);
    const times = asked.map((a) => a.at).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(1000);
  });

  it('answers the same search asked twice at once with one upstream request', async () => {
    await geo.clock.advance(1100);
    const seen = up.seen.length;
    const answers = await Promise.all([s.api('GET', search('Fourth Street'), { token }), s.api('GET', search('Fourth Street'), { token })]);
    expect(answers.map((a) => a.body)).toEqual([{ results: [] }, { results: [] }]);
    expect(up.seen.length).toBe(seen + 1);
  });
});

describe('with a geocoder that answers 500', () => {
  let token: string;
  const geo = standInOnClock({ mode: 'fail', places: PLACES });
  const { s, up } = geo;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers 503, caches nothing, and backs off: neither search nor reverse knocks again for a while', async () => {
    const first = await s.api('GET', search('Charminar'), { token });
    expect(first).toMatchObject(UNAVAILABLE);
    // When to try again: the backoff's end.
    expect(first.headers.get('retry-after')).toBe('60');
    expect(up.seen).toHaveLength(1);
    expect(await s.ctx.db('geocode_searches').count({ n: '*' }).first()).toMatchObject({ n: 0 });

    up.state.mode = 'answer'; // even a recovered geocoder is left alone during the backoff
    await geo.clock.advance(1100);
    expect(await s.api('GET', search('Charminar'), { token })).toMatchObject(UNAVAILABLE);
    expect((await s.api('GET', '/api/geocode/reverse?lat=17.2&lon=78.2', { token })).body).toEqual({ displayName: '17.2, 78.2', cached: false });
    // Local parsing does not depend on the geocoder at all.
    expect((await s.api('GET', search('17.2, 78.2'), { token })).status).toBe(200);
    expect(up.seen).toHaveLength(1);

    await geo.clock.advance(60_000);
    expect((await s.api('GET', search('Charminar'), { token })).body.results).toHaveLength(2);
    expect(up.seen).toHaveLength(2);
  });
});

describe('with a geocoder that never answers', () => {
  let token: string;
  const geo = standInOnClock({ mode: 'hang', places: PLACES });
  const { s, up } = geo;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers 503 once the request times out', async () => {
    const before = geo.clock.now();
    const res = await geo.clock.runUntil(geo.ask(search('Charminar'), token), geo.quiet);
    expect(res).toMatchObject(UNAVAILABLE);
    expect(geo.clock.now() - before).toBeLessThanOrEqual(3000);
    expect(up.seen).toHaveLength(1);
  });
});

describe('with an unreachable geocoder', () => {
  const { s, calls } = recordingServer(async () => `http://127.0.0.1:${await closedPort()}`);
  let token: string;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers 503, trying once', async () => {
    expect(await s.api('GET', search('Charminar'), { token })).toMatchObject(UNAVAILABLE);
    expect(await s.api('GET', search('Banjara Hills'), { token })).toMatchObject(UNAVAILABLE);
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]).pathname).toBe('/search');
  });
});

describe('with an old GEOCODER_URL naming /reverse', () => {
  let up: StandIn;
  let token: string;
  beforeAll(async () => { up = await startNominatimStandIn(); });
  afterAll(() => up?.close());
  const s = useTestServer(() => ({ env: { GEOCODER_URL: `${up.url}/reverse` } }));
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('still searches at the same base', async () => {
    expect((await s.api('GET', search('Charminar'), { token })).body.results).toHaveLength(2);
    expect(up.seen.map((r) => r.url.pathname)).toEqual(['/search']);
  });
});
