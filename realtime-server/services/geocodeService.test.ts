import { beforeAll, describe, expect, it } from 'vitest';
import { closedPort, recordingServer, standInOnClock } from '../testing/geocoderHarness';

/**
 * GET /api/geocode/reverse against a real local Nominatim-compatible geocoder: cache first,
 * at most one upstream request a second, never hanging (timeout, backoff, fallback "lat, lon").
 * Where time is the subject the server's geocoder runs on a manual clock (manualClock.ts),
 * which jumps to its next timer once every request under way is parked on one.
 */

async function timed<T>(work: Promise<T>): Promise<[T, number]> {
  const t0 = Date.now();
  const result = await work;
  return [result, Date.now() - t0];
}

describe('with a working upstream', () => {
  let token: string;
  const geo = standInOnClock();
  const { s, up } = geo;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers from upstream, then from the cache without asking upstream again', async () => {
    const first = await s.api('GET', '/api/geocode/reverse?lat=17.385&lon=78.4867', { token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ displayName: 'Place at 17.385/78.4867', cached: false });
    expect(up.seen.length).toBe(1);

    const req = up.seen[0];
    expect(req.url.pathname).toBe('/reverse');
    expect(req.url.searchParams.get('format')).toBe('jsonv2');
    expect(Number(req.url.searchParams.get('lat'))).toBe(17.385);
    expect(Number(req.url.searchParams.get('lon'))).toBe(78.4867);
    expect(req.headers['user-agent']).toMatch(/Lifeline/);
    expect(req.headers.authorization).toBeUndefined();

    const rows = await s.ctx.db('geocode_cache').select('key', 'display_name');
    expect(rows).toEqual([{ key: '17.38500,78.48670', display_name: 'Place at 17.385/78.4867' }]);

    const second = await s.api('GET', '/api/geocode/reverse?lat=17.385&lon=78.4867', { token });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ displayName: 'Place at 17.385/78.4867', cached: true });
    expect(up.seen.length).toBe(1);
  });

  it('is open to admins too, and refuses no token or a bad token with 401', async () => {
    const adminToken = await s.signIn('admin');
    const asAdmin = await s.api('GET', '/api/geocode/reverse?lat=17.385&lon=78.4867', { token: adminToken });
    expect(asAdmin).toMatchObject({ status: 200, body: { displayName: 'Place at 17.385/78.4867', cached: true } });
    const seen = up.seen.length;
    const none = await s.api('GET', '/api/geocode/reverse?lat=17.1&lon=78.1');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: expect.any(String) });
    const bad = await s.api('GET', '/api/geocode/reverse?lat=17.1&lon=78.1', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(up.seen.length).toBe(seen);
  });

  it('validates lat and lon with 400 and never asks upstream', async () => {
    const seen = up.seen.length;
    for (const q of ['lat=100&lon=78.4', 'lat=-90.5&lon=78.4', 'lat=17.4&lon=181', 'lat=17.4', 'lon=78.4', '', 'lat=abc&lon=78.4', 'lat=17.4&lon=Infinity']) {
      const res = await s.api('GET', `/api/geocode/reverse?${q}`, { token });
      expect(res.status, q).toBe(400);
      expect(res.body, q).toEqual({ error: expect.any(String) });
    }
    expect(up.seen.length).toBe(seen);
  });

  it('treats an empty lat or lon as missing (400), not as 0', async () => {
    const seen = up.seen.length;
    for (const q of ['lat=17.4&lon=', 'lat=&lon=78.4', 'lat=%20&lon=78.4']) {
      const res = await s.api('GET', `/api/geocode/reverse?${q}`, { token });
      expect({ q, status: res.status, body: res.body }).toEqual({ q, status: 400, body: { error: expect.any(String) } });
    }
    expect(up.seen.length).toBe(seen);
  });

  it('spaces concurrent upstream requests at least a second apart and answers the overflow with the fallback', async () => {
    await geo.clock.advance(1100); // let the previous tests' slot pass
    const seenBefore = up.seen.length;
    // Eight at once from one user: turns now and at +1 … +5 s fit the 5 s wait bound (GEOCODER_WAIT_SECONDS), the rest do not.
    const points = Array.from({ length: 8 }, (_, i) => ({ lat: 16 + i / 10, lon: 77 + i / 10 }));
    // On the server's clock, not the wall's: a turn waited for moves the clock a second or more, a busy machine does not.
    const t0 = geo.clock.now();
    const answers = await geo.clock.runUntil(Promise.all(points.map(async (p) => {
      const res = await geo.ask(`/api/geocode/reverse?lat=${p.lat}&lon=${p.lon}`, token);
      return { ...res, ms: geo.clock.now() - t0 };
    })), geo.quiet);
    const upstream = up.seen.slice(seenBefore);

    // At most one upstream request a second for the whole server.
    expect(upstream.length).toBeGreaterThanOrEqual(1);
    expect(upstream.length).toBeLessThan(points.length);
    for (let i = 1; i < upstream.length; i++) expect(upstream[i].at - upstream[i - 1].at).toBeGreaterThanOrEqual(950);

    // Every request answered: the upstream's name for the points it was asked, "lat, lon" for the rest.
    const asked = new Set(upstream.map((u) => `${Number(u.url.searchParams.get('lat'))},${Number(u.url.searchParams.get('lon'))}`));
    points.forEach((p, i) => {
      expect(answers[i].status).toBe(200);
      expect(answers[i].body).toEqual({
        displayName: asked.has(`${p.lat},${p.lon}`) ? `Place at ${p.lat}/${p.lon}` : `${p.lat}, ${p.lon}`,
        cached: false,
      });
    });
    const fallbacks = answers.filter((a) => !a.body.displayName.startsWith('Place at'));
    expect(fallbacks.length).toBe(points.length - upstream.length);
    // Those that would have waited too long answered without waiting their turn.
    for (const f of fallbacks) expect(f.ms).toBeLessThan(1000);
    // Names are cached, fallbacks are not.
    const cachedKeys = new Set((await s.ctx.db('geocode_cache').select('key')).map((r: any) => r.key));
    for (const p of points) {
      expect({ p, cached: cachedKeys.has(`${p.lat.toFixed(5)},${p.lon.toFixed(5)}`) }).toEqual({ p, cached: asked.has(`${p.lat},${p.lon}`) });
    }
  });

  it('an upstream answer without a name gives the fallback, uncached, without backing off', async () => {
    await geo.clock.advance(1100);
    up.state.mode = 'no-name';
    try {
      const seen = up.seen.length;
      const res = await s.api('GET', '/api/geocode/reverse?lat=10.5&lon=20.25', { token });
      expect(res.body).toEqual({ displayName: '10.5, 20.25', cached: false });
      expect(up.seen.length).toBe(seen + 1);
      expect(await s.ctx.db('geocode_cache').where({ key: '10.50000,20.25000' }).first()).toBeUndefined();
      up.state.mode = 'answer';
      await geo.clock.advance(1100);
      const again = await s.api('GET', '/api/geocode/reverse?lat=10.5&lon=20.25', { token });
      expect(again.body).toEqual({ displayName: 'Place at 10.5/20.25', cached: false });
      expect(up.seen.length).toBe(seen + 2);
    } finally {
      up.state.mode = 'answer';
    }
  });
});

describe('with an upstream that never answers', () => {
  let token: string;
  const geo = standInOnClock({ mode: 'hang' });
  const { s, up } = geo;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers the fallback within about 3 s, then at once without asking upstream (backoff)', async () => {
    const [first, ms] = await geo.clock.runUntil(timed(geo.ask('/api/geocode/reverse?lat=17.385&lon=78.4867', token)), geo.quiet);
    expect(first).toMatchObject({ status: 200, body: { displayName: '17.385, 78.4867', cached: false } });
    expect(ms).toBeLessThan(3500);
    expect(up.seen.length).toBe(1);

    up.state.mode = 'answer'; // even a recovered upstream is left alone during the backoff
    const [later, laterMs] = await timed(s.api('GET', '/api/geocode/reverse?lat=17.4&lon=78.5', { token }));
    expect(later.body).toEqual({ displayName: '17.4, 78.5', cached: false });
    expect(laterMs).toBeLessThan(500);
    const [again] = await timed(s.api('GET', '/api/geocode/reverse?lat=17.385&lon=78.4867', { token }));
    expect(again.body).toEqual({ displayName: '17.385, 78.4867', cached: false });
    expect(up.seen.length).toBe(1);
    expect(await s.ctx.db('geocode_cache').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});

describe('with an upstream that never answers, requests queued behind the first', () => {
  let token: string;
  const geo = standInOnClock({ mode: 'hang' });
  const { s, up } = geo;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('are released with the fallback when the first times out, without knocking again', async () => {
    const ask = (lat: number, lon: number) => timed(geo.ask(`/api/geocode/reverse?lat=${lat}&lon=${lon}`, token));
    // Three at once take the slots now, +1 s and +2 s; all three reach the hanging upstream.
    const first = [ask(1, 1), ask(2, 2), ask(3, 3)];
    await geo.clock.settle(geo.quiet);
    await geo.clock.advance(1100);
    // This one's turn (+3 s) comes after the first has timed out (+2.5 s): it must not wait for it.
    const [late, lateMs] = await geo.clock.runUntil(ask(4, 4), geo.quiet);
    expect(late.body).toEqual({ displayName: '4, 4', cached: false });
    expect(lateMs).toBeLessThan(2000);
    const answers = await geo.clock.runUntil(Promise.all(first), geo.quiet);
    expect(answers.map(([r]) => r.body)).toEqual([1, 2, 3].map((i) => ({ displayName: `${i}, ${i}`, cached: false })));
    for (const [, ms] of answers) expect(ms).toBeLessThan(5000);
    // In any order: on PostgreSQL the three cache look-ups run at once on a pool.
    expect(up.seen.map((r) => r.url.searchParams.get('lat')).sort()).toEqual(['1', '2', '3']);
  });
});

describe('with an unreachable upstream', () => {
  const { s, calls } = recordingServer(async () => `http://127.0.0.1:${await closedPort()}/reverse`);
  let token: string;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers the fallback fast, for concurrent requests too, trying the upstream once', async () => {
    const [res, ms] = await timed(s.api('GET', '/api/geocode/reverse?lat=-33.8688&lon=151.2093', { token }));
    expect(res).toMatchObject({ status: 200, body: { displayName: '-33.8688, 151.2093', cached: false } });
    expect(ms).toBeLessThan(1000);
    expect(calls.length).toBe(1);
    expect(new URL(calls[0]).searchParams.get('format')).toBe('jsonv2');
    const [again, againMs] = await timed(s.api('GET', '/api/geocode/reverse?lat=-33.8688&lon=151.2093', { token }));
    expect(again.body).toEqual({ displayName: '-33.8688, 151.2093', cached: false });
    expect(againMs).toBeLessThan(500);
    expect(calls.length).toBe(1);
  });
});

describe('with an unreachable upstream, asked concurrently from the start', () => {
  const { s, calls } = recordingServer(async () => `http://127.0.0.1:${await closedPort()}/reverse`);
  let token: string;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers every request fast: those queued behind the failed one do not wait their turn', async () => {
    const answers = await Promise.all([1, 2, 3].map((i) => timed(s.api('GET', `/api/geocode/reverse?lat=${i}.5&lon=${i}.25`, { token }))));
    expect(answers.map(([r]) => r.body)).toEqual([1, 2, 3].map((i) => ({ displayName: `${i}.5, ${i}.25`, cached: false })));
    for (const [, ms] of answers) expect(ms).toBeLessThan(800);
    expect(calls.length).toBe(1);
  });
});

describe('with GEOCODER_URL off', () => {
  const { s, calls } = recordingServer(() => 'off');
  let token: string;
  beforeAll(async () => { token = await s.signIn('operator'); });

  it('answers the fallback immediately and never calls out', async () => {
    const [res, ms] = await timed(s.api('GET', '/api/geocode/reverse?lat=0&lon=0', { token }));
    expect(res).toMatchObject({ status: 200, body: { displayName: '0, 0', cached: false } });
    expect(ms).toBeLessThan(500);
    const many = await Promise.all([1, 2, 3, 4].map((i) => s.api('GET', `/api/geocode/reverse?lat=${i}&lon=${-i}`, { token })));
    expect(many.map((r) => r.body)).toEqual([1, 2, 3, 4].map((i) => ({ displayName: `${i}, ${-i}`, cached: false })));
    expect(calls).toEqual([]);
  });
});
