import { beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_SEARCH_SUPERSEDED, ADDRESS_SEARCH_UNAVAILABLE } from '../contract';
import { type NominatimStandIn, staffTokens, standInOnClock } from '../testing/geocoderHarness';
import type { ApiResult } from '../testing/testServer';
import { waitFor } from '../testing/wait';

/**
 * The geocoder's one-request-a-second slot shared between dispatchers at a healthy geocoder:
 * round-robin between users, a short bounded wait (GEOCODER_WAIT_SECONDS, 5 s by default)
 * instead of 503, a user's newer search replacing their older one still waiting, a request
 * whose client left giving its place up. The server's geocoder runs on a manual clock
 * (manualClock.ts): waiting for a turn takes no real time, and the stand-in records each
 * request at the clock's time.
 */

const search = (q: string) => `/api/geocode/search?q=${encodeURIComponent(q)}`;
const reverse = (p: { lat: number; lon: number }) => `/api/geocode/reverse?lat=${p.lat}&lon=${p.lon}`;
const DEFAULT_WAIT_MS = 5000;

/** At most one upstream request a second, over everything the stand-in has seen. */
function expectPaced(up: NominatimStandIn) {
  const gaps = up.seen.slice(1).map((r, i) => r.at - up.seen[i].at);
  expect(gaps.filter((g) => g < 1000)).toEqual([]);
}

/** What each upstream request asked for: the words of a search, the point of a reverse. */
const asked = (up: NominatimStandIn, from: number) =>
  up.seen.slice(from).map((r) => (r.url.pathname === '/search' ? r.url.searchParams.get('q') : `${Number(r.url.searchParams.get('lat'))},${Number(r.url.searchParams.get('lon'))}`));

describe('at a healthy geocoder', () => {
  let tokens: string[];
  const geo = standInOnClock();
  const { up } = geo;
  beforeAll(async () => { tokens = await staffTokens(geo.s, 5); });

  it('five dispatchers searching in the same second all get answers (no 503), one turn each, a second apart, within the wait bound', async () => {
    await geo.clock.advance(1100);
    const from = up.seen.length;
    const t0 = geo.clock.now();
    const words = tokens.map((_, i) => `Dispatcher ${i} Street`);
    const answers = await geo.clock.runUntil(Promise.all(tokens.map((token, i) => geo.ask(search(words[i]), token))), geo.quiet);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(asked(up, from).sort()).toEqual([...words].sort());
    for (const r of up.seen.slice(from)) expect(r.at - t0).toBeLessThanOrEqual(DEFAULT_WAIT_MS);
    expectPaced(up);
  });

  it('turns go round the users: a burst of place names from one board does not hold the other dispatchers back', async () => {
    await geo.clock.advance(1100);
    const from = up.seen.length;
    const t0 = geo.clock.now();
    const points = [1, 2, 3, 4].map((i) => ({ lat: 12 + i / 10, lon: 77 + i / 10 }));
    // The board asks four place names (one after another: their order is the test's): the first goes at once, the others wait in its user's line.
    const names: Promise<ApiResult>[] = [];
    for (const p of points) {
      names.push(geo.ask(reverse(p), tokens[0]));
      await geo.clock.settle(geo.quiet);
    }
    // Then four other dispatchers search, one after another.
    const searches: Promise<ApiResult>[] = [];
    for (let i = 1; i < 5; i++) {
      searches.push(geo.ask(search(`Round Robin ${i}`), tokens[i]));
      await geo.clock.settle(geo.quiet);
    }
    const [nameAnswers, searchAnswers] = await geo.clock.runUntil(Promise.all([Promise.all(names), Promise.all(searches)]), geo.quiet);

    // The board's second name had its turn before they came; then one turn each, in the order they came.
    expect(asked(up, from)).toEqual(['12.1,77.1', '12.2,77.2', 'Round Robin 1', 'Round Robin 2', 'Round Robin 3', 'Round Robin 4']);
    expect(searchAnswers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // The board's last two would have waited beyond the bound: "lat, lon" now, a name on a later look.
    expect(nameAnswers.map((a) => a.body.displayName)).toEqual(['Place at 12.1/77.1', 'Place at 12.2/77.2', '12.3, 77.3', '12.4, 77.4']);
    for (const r of up.seen.slice(from)) expect(r.at - t0).toBeLessThanOrEqual(DEFAULT_WAIT_MS);
    expectPaced(up);
  });

  it('one operator searching three times a second does not starve another: every search and place name of the other is answered', async () => {
    await geo.clock.advance(1100);
    const from = up.seen.length;
    const [busy, other] = [tokens[0], tokens[1]];
    const busyAnswers: { q: string; res: Promise<ApiResult> }[] = [];
    const otherSearches: Promise<ApiResult>[] = [];
    const otherNames: { p: { lat: number; lon: number }; res: Promise<ApiResult> }[] = [];
    // Twelve seconds: the busy operator searches every third of a second; the other, every two seconds,
    // searches or looks a place name up (their fair half of the slot: more, and their own newer searches would supersede older ones).
    for (let step = 0; step < 36; step++) {
      const q = `Busy Lane ${step}`;
      busyAnswers.push({ q, res: geo.ask(search(q), busy) });
      if (step % 6 === 0) {
        if (step % 12 === 0) otherSearches.push(geo.ask(search(`Quiet Road ${step}`), other));
        else {
          const p = { lat: 13 + step / 100, lon: 78 + step / 100 };
          otherNames.push({ p, res: geo.ask(reverse(p), other) });
        }
      }
      await geo.clock.settle(geo.quiet);
      if (step === 30) {
        // A place name in the cache is answered at once, however long the line.
        const before = geo.clock.now();
        const hit = await geo.clock.runUntil(geo.ask(reverse(otherNames[0].p), other), geo.quiet);
        expect(hit.body).toEqual({ displayName: `Place at ${otherNames[0].p.lat}/${otherNames[0].p.lon}`, cached: true });
        expect(geo.clock.now()).toBe(before);
      }
      await geo.clock.advance(333);
    }
    const [searchAnswers, nameAnswers, busyDone] = await geo.clock.runUntil(
      Promise.all([Promise.all(otherSearches), Promise.all(otherNames.map((n) => n.res)), Promise.all(busyAnswers.map((b) => b.res))]),
      geo.quiet,
    );

    expect(searchAnswers.map((a) => a.status)).toEqual(otherSearches.map(() => 200));
    expect(nameAnswers.map((a) => a.body.displayName)).toEqual(otherNames.map(({ p }) => `Place at ${p.lat}/${p.lon}`));
    // The busy operator's searches are answered, or superseded by their next one without reaching the upstream.
    const statuses = busyDone.map((a, i) => ({ q: busyAnswers[i].q, status: a.status, error: a.body.error }));
    for (const s of statuses) expect(s.status === 200 || (s.status === 409 && s.error === ADDRESS_SEARCH_SUPERSEDED), JSON.stringify(s)).toBe(true);
    const answered = statuses.filter((s) => s.status === 200).map((s) => s.q);
    expect(answered.length).toBeGreaterThanOrEqual(3);
    expect(asked(up, from).filter((q) => q!.startsWith('Busy Lane'))).toEqual(answered);
    expectPaced(up);
  });

  it("a user's newer search supersedes their older one still waiting: 409 at once, never asked upstream, and the newer keeps its place", async () => {
    await geo.clock.advance(1100);
    const from = up.seen.length;
    // Another dispatcher's search takes this second's turn.
    const holding = await geo.ask(search('Holding Street'), tokens[1]);
    expect(holding.status).toBe(200);
    const older = geo.ask(search('Old Words Street'), tokens[0]);
    await geo.clock.settle(geo.quiet);
    const third = geo.ask(search('Third Party Street'), tokens[2]);
    await geo.clock.settle(geo.quiet);
    const before = geo.clock.now();
    const newer = geo.ask(search('New Words Street'), tokens[0]);
    expect(await geo.clock.runUntil(older, geo.quiet)).toMatchObject({ status: 409, body: { error: ADDRESS_SEARCH_SUPERSEDED } });
    expect(geo.clock.now()).toBe(before);
    const [n, t] = await geo.clock.runUntil(Promise.all([newer, third]), geo.quiet);
    expect([n.status, t.status]).toEqual([200, 200]);
    expect(asked(up, from)).toEqual(['Holding Street', 'New Words Street', 'Third Party Street']);
    expectPaced(up);
  });

  it('a search whose client left gives its place up: the upstream never sees it, and the next in line moves up', async () => {
    await geo.clock.advance(1100);
    const from = up.seen.length;
    expect((await geo.ask(search('Holding Street 2'), tokens[1])).status).toBe(200);
    const leaving = new AbortController();
    const left = geo.ask(search('Abandoned Street'), tokens[0], leaving.signal);
    left.catch(() => undefined);
    await geo.clock.settle(geo.quiet);
    const later = geo.ask(search('Later Street'), tokens[2]);
    await geo.clock.settle(geo.quiet);
    leaving.abort();
    await expect(left).rejects.toThrow();
    // Quiet again once the server has taken the left request's place back (its timer gone).
    await waitFor(() => geo.quiet(), 'the left search to give its place up', 3000);
    const t0 = geo.clock.now();
    expect((await geo.clock.runUntil(later, geo.quiet)).status).toBe(200);
    expect(asked(up, from)).toEqual(['Holding Street 2', 'Later Street']);
    expect(up.seen.at(-1)!.at - up.seen.at(-2)!.at).toBe(1000);
    expect(up.seen.at(-1)!.at - t0).toBeLessThanOrEqual(1000);
  });
});

describe('at a healthy geocoder with GEOCODER_WAIT_SECONDS=2 and GEOCODER_QUEUE_MAX=2', () => {
  let tokens: string[];
  const geo = standInOnClock({ env: { GEOCODER_WAIT_SECONDS: '2', GEOCODER_QUEUE_MAX: '2' } });
  const { up } = geo;
  beforeAll(async () => { tokens = await staffTokens(geo.s, 3); });

  it('a full line makes room for a user with nothing waiting, and a turn beyond the bound is refused at once (503, "lat, lon")', async () => {
    await geo.clock.advance(1100);
    const from = up.seen.length;
    const t0 = geo.clock.now();
    const point = (i: number) => ({ lat: 14 + i, lon: 79 });
    expect((await geo.ask(reverse(point(1)), tokens[0])).body.displayName).toBe('Place at 15/79');
    // Two more of the board's place names fill the line (turns at +1 s and +2 s).
    const second = geo.ask(reverse(point(2)), tokens[0]);
    await geo.clock.settle(geo.quiet);
    const third = geo.ask(reverse(point(3)), tokens[0]);
    await geo.clock.settle(geo.quiet);
    // Another dispatcher's search takes the board's newest place, which answers "lat, lon" at once.
    const other = geo.ask(search('Bound Street'), tokens[1]);
    expect((await geo.clock.runUntil(third, geo.quiet)).body).toEqual({ displayName: '17, 79', cached: false });
    expect(geo.clock.now()).toBe(t0);
    await geo.clock.settle(geo.quiet);
    // A third dispatcher's turn would come at +3 s, beyond the 2 s bound: 503 at once.
    const late = await geo.ask(search('Too Late Street'), tokens[2]);
    expect(late).toMatchObject({ status: 503, body: { error: ADDRESS_SEARCH_UNAVAILABLE } });
    // A busy refusal says when to ask again: about the wait bound.
    expect(late.headers.get('retry-after')).toBe('2');
    expect(geo.clock.now()).toBe(t0);
    const [s2, o] = await geo.clock.runUntil(Promise.all([second, other]), geo.quiet);
    expect(s2.body.displayName).toBe('Place at 16/79');
    expect(o.status).toBe(200);
    expect(asked(up, from)).toEqual(['15,79', '16,79', 'Bound Street']);
    expectPaced(up);
  });
});
