import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { dispatchCase, trackingTokens } from '../../testing/dispatchHelpers';
import { DEMO, startTestServer, type TestServer } from '../../testing/testServer';
import { clientIp, proxyTrust } from './clientIp';
import { linkRefusal, signinRefusal } from './rateLimit';

/**
 * Sign-in attempts per account and per client address, link calls per token or case, the
 * 429 answer (Retry-After + a clear error), and which address is the client's.
 */

const NO_ACCOUNT = 'No staff account matches this email, username and phone number';
const SIGNIN_REFUSED = /^Too many sign-in attempts\. Try again in (\d+) minutes?\.$/;
const LINK_REFUSED = /^Too many requests\. Try again in (\d+) seconds?\.$/;

/** A 429 with a Retry-After of at most `maxSeconds` whose text agrees with it. */
function expectTooMany(res: { status: number; body: any; headers: Headers }, pattern: RegExp, maxSeconds: number) {
  expectError(res, 429, pattern);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  const n = Number(pattern.exec(res.body.error)![1]);
  expect(n).toBe(pattern === SIGNIN_REFUSED ? Math.ceil(retryAfter / 60) : retryAfter);
}

describe('client address', () => {
  const none = proxyTrust([]);
  const local = proxyTrust(['127.0.0.1', '::1']);
  const chain = proxyTrust(['127.0.0.1', '10.0.0.0/8']);

  it.each([
    ['the peer without a trusted proxy', '203.0.113.9', undefined, none, '203.0.113.9'],
    ['the peer, ignoring X-Forwarded-For from an untrusted peer', '203.0.113.9', '198.51.100.1', none, '203.0.113.9'],
    ['the peer, ignoring X-Forwarded-For from a peer that is not the trusted proxy', '203.0.113.9', '198.51.100.1', local, '203.0.113.9'],
    ['IPv4-mapped IPv6 peers as IPv4', '::ffff:203.0.113.9', undefined, none, '203.0.113.9'],
    ['the forwarded address behind a trusted proxy', '127.0.0.1', '198.51.100.1', local, '198.51.100.1'],
    ['the trusted proxy as IPv4-mapped IPv6', '::ffff:127.0.0.1', '198.51.100.1', local, '198.51.100.1'],
    ['the right-most entry: a client cannot choose its address by adding entries', '127.0.0.1', '1.2.3.4, 198.51.100.1', local, '198.51.100.1'],
    ['the right-most untrusted entry through a chain of trusted proxies (subnet)', '127.0.0.1', '1.2.3.4, 198.51.100.1, 10.1.2.3', chain, '198.51.100.1'],
    ['an entry with a port', '127.0.0.1', '198.51.100.1:5678', local, '198.51.100.1'],
    ['IPv6 entries', '::1', '2001:db8::1', local, '2001:db8::1'],
    ['the left-most when every hop is a trusted proxy', '127.0.0.1', '10.0.0.1, 10.0.0.2', chain, '10.0.0.1'],
    ['the last trusted hop when a trusted proxy passes garbage', '127.0.0.1', 'garbage', local, '127.0.0.1'],
  ])('is %s', (_what, peer, xff, trust, expected) => {
    expect(clientIp(peer, xff, trust)).toBe(expected);
  });

  it('refuses a TRUSTED_PROXY entry that is no address or subnet', () => {
    expect(() => proxyTrust(['proxy.internal'])).toThrow(/TRUSTED_PROXY: "proxy.internal"/);
    expect(() => proxyTrust(['10.0.0.0/99'])).toThrow();
  });
});

describe('refusal texts', () => {
  it.each([
    [15 * 60_000, 'Too many sign-in attempts. Try again in 15 minutes.'],
    [60_001, 'Too many sign-in attempts. Try again in 2 minutes.'],
    [30_000, 'Too many sign-in attempts. Try again in 1 minute.'],
  ])('sign-in after %i ms', (ms, text) => expect(signinRefusal(ms)).toBe(text));
  it.each([
    [59_001, 'Too many requests. Try again in 60 seconds.'],
    [1_000, 'Too many requests. Try again in 1 second.'],
    [10, 'Too many requests. Try again in 1 second.'],
  ])('link after %i ms', (ms, text) => expect(linkRefusal(ms)).toBe(text));
});

describe('sign-in attempts per account (SIGNIN_LIMIT_ACCOUNT=3)', () => {
  let s: TestServer;
  let admin: string;
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer({ env: { SIGNIN_LIMIT_ACCOUNT: '3', SIGNIN_LIMIT_IP: '1000', LINK_LIMIT_PER_MIN: '4' } });
    admin = await s.signIn('admin');
  });
  afterAll(() => s?.dispose());

  /** A fresh operator for each test, so that one test's lock-out does not reach the next. */
  async function newOperator() {
    n += 1;
    const who = { email: `limit${n}@lifeline.test`, username: `Limit Tester ${n}`, phone: `555 07${String(n).padStart(2, '0')}` };
    const res = await s.api('POST', '/api/users', { token: admin, body: { name: who.username, email: who.email, phone: who.phone, shift: 1, gender: 0 } });
    expect(res.status).toBe(201);
    return who;
  }
  const signIn = (body: unknown, headers?: Record<string, string>) => s.api('POST', '/api/auth/signin', { body, headers });
  const wrong = (who: { phone: string }) => ({ ...who, phone: '000' });

  it('refuses the 4th attempt after 3 failures with 429 and Retry-After, even with the right fields, and opens no session', async () => {
    const who = await newOperator();
    for (let i = 0; i < 3; i++) expectError(await signIn(wrong(who)), 401, NO_ACCOUNT);
    const refused = await expectNoWrite(s.ctx.db, () => signIn(who));
    expectTooMany(refused, SIGNIN_REFUSED, 15 * 60);
    expect(refused.body.error).toBe('Too many sign-in attempts. Try again in 15 minutes.');
    expectTooMany(await signIn(wrong(who)), SIGNIN_REFUSED, 15 * 60);
  });

  it('counts the account by its normalised e-mail (case, spaces)', async () => {
    const who = await newOperator();
    expectError(await signIn({ ...wrong(who), email: who.email.toUpperCase() }), 401, NO_ACCOUNT);
    expectError(await signIn({ ...wrong(who), email: `  ${who.email}  ` }), 401, NO_ACCOUNT);
    expectError(await signIn(wrong(who)), 401, NO_ACCOUNT);
    expectTooMany(await signIn(who), SIGNIN_REFUSED, 15 * 60);
  });

  it('a successful sign-in clears the account count', async () => {
    const who = await newOperator();
    for (let i = 0; i < 2; i++) expectError(await signIn(wrong(who)), 401, NO_ACCOUNT);
    expect((await signIn(who)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await signIn(wrong(who)), 401, NO_ACCOUNT);
    expectTooMany(await signIn(who), SIGNIN_REFUSED, 15 * 60);
  });

  it('counts an unknown account too, without telling it apart from a known one', async () => {
    const ghost = { email: 'ghost@lifeline.test', username: 'Ghost', phone: '555' };
    for (let i = 0; i < 3; i++) expectError(await signIn(ghost), 401, NO_ACCOUNT);
    expectTooMany(await signIn(ghost), SIGNIN_REFUSED, 15 * 60);
  });

  it('does not count a request that fails validation (400): nothing was tried', async () => {
    const who = await newOperator();
    for (let i = 0; i < 5; i++) expectError(await signIn({ email: who.email, username: who.username }), 400, 'phone: required');
    expect((await signIn(who)).status).toBe(200);
  });

  it("one account's lock-out leaves the others alone", async () => {
    const locked = await newOperator();
    for (let i = 0; i < 4; i++) await signIn(wrong(locked));
    expect((await signIn(locked)).status).toBe(429);
    expect((await signIn(await newOperator())).status).toBe(200);
    expect((await signIn(DEMO.operator)).status).toBe(200);
  });

  it('successful sign-ins are not limited', async () => {
    for (let i = 0; i < 8; i++) expect((await signIn(DEMO.operator)).status).toBe(200);
  });

  describe('link calls per token (LINK_LIMIT_PER_MIN=4)', () => {
    let operator: string;
    beforeAll(async () => { operator = await s.signIn('operator'); });

    it('GET /api/track/{id}?t=: the 5th call within a minute gets 429 with Retry-After; another link still works', async () => {
      const first = await trackingTokens(s, operator, await dispatchCase(s, operator, 1), 1);
      const second = await trackingTokens(s, operator, await dispatchCase(s, operator, 2), 2);
      for (let i = 0; i < 4; i++) expect((await s.api('GET', `/api/track/1?t=${first.viewer}`)).status).toBe(200);
      const refused = await s.api('GET', `/api/track/1?t=${first.viewer}`);
      expectTooMany(refused, LINK_REFUSED, 60);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect((await s.api('GET', `/api/track/2?t=${second.viewer}`)).status).toBe(200);
    });

    it('POST /api/location/{caseId}: counted per case; the 5th share is refused and writes nothing', async () => {
      const caseId = await dispatchCase(s, operator, 3);
      const other = await dispatchCase(s, operator, 4);
      const share = (id: string, i: number) => s.api('POST', `/api/location/${id}`, { body: { latitude: 17.4 + i / 1000, longitude: 78.5 } });
      for (let i = 0; i < 4; i++) expect((await share(caseId, i)).status).toBe(200);
      expectTooMany(await expectNoWrite(s.ctx.db, () => share(caseId, 9)), LINK_REFUSED, 60);
      expect((await share(other, 0)).status).toBe(200);
    });

    it('POST /api/ambulances/{id}/position?t=: counted per driver token; staff (bearer) positions are not', async () => {
      const { driver } = await trackingTokens(s, operator, await dispatchCase(s, operator, 5), 5);
      const post = (query: string, token?: string) => s.api('POST', `/api/ambulances/5/position${query}`, { token, body: { latitude: 17.39, longitude: 78.48 } });
      for (let i = 0; i < 4; i++) expect((await post(`?t=${driver}`)).status).toBe(200);
      expectTooMany(await expectNoWrite(s.ctx.db, () => post(`?t=${driver}`)), LINK_REFUSED, 60);
      for (let i = 0; i < 6; i++) expect((await post('', operator)).status).toBe(200);
    });

    it('a driver socket counts with the same link: REST and socket positions share the 4 a minute', async () => {
      const { driver } = await trackingTokens(s, operator, await dispatchCase(s, operator, 6), 6);
      const post = () => s.api('POST', `/api/ambulances/6/position?t=${driver}`, { body: { latitude: 17.39, longitude: 78.48 } });
      const sock = await s.socket({ driverToken: driver });
      try {
        const emit = (i: number) => sock.timeout(3000).emitWithAck('ambulance.position', { latitude: 17.39 + i / 1000, longitude: 78.48 });
        for (let i = 0; i < 2; i++) expect((await post()).status).toBe(200);
        for (let i = 0; i < 2; i++) expect(await emit(i)).toMatchObject({ ok: true });
        const refused = await expectNoWrite(s.ctx.db, () => emit(9));
        expect(refused).toEqual({ ok: false, error: expect.stringMatching(LINK_REFUSED) });
        expectTooMany(await post(), LINK_REFUSED, 60);
      } finally {
        sock.disconnect();
      }
    });
  });
});

describe('sign-in attempts per address, no trusted proxy (SIGNIN_LIMIT_IP=4)', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer({ env: { SIGNIN_LIMIT_IP: '4', SIGNIN_LIMIT_ACCOUNT: '100' } }); });
  afterAll(() => s?.dispose());

  it('counts failures across accounts; a spoofed X-Forwarded-For does not make a new client', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await s.api('POST', '/api/auth/signin', { body: { ...DEMO.operator, email: `spray${i}@lifeline.test` }, headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      expectError(res, 401, NO_ACCOUNT);
    }
    const refused = await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/auth/signin', { body: DEMO.operator, headers: { 'x-forwarded-for': '198.51.100.77' } }));
    expectTooMany(refused, SIGNIN_REFUSED, 15 * 60);
    expectTooMany(await s.api('POST', '/api/auth/signin', { body: DEMO.admin }), SIGNIN_REFUSED, 15 * 60);
  });
});

describe('sign-in attempts per address behind a trusted proxy (TRUSTED_PROXY=127.0.0.1, SIGNIN_LIMIT_IP=3)', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer({ env: { TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_IP: '3', SIGNIN_LIMIT_ACCOUNT: '100' } }); });
  afterAll(() => s?.dispose());

  const from = (xff: string, body: unknown = { ...DEMO.operator, phone: '000' }) => s.api('POST', '/api/auth/signin', { body, headers: { 'x-forwarded-for': xff } });

  it('counts the client the proxy names; other clients behind the same proxy are not affected', async () => {
    for (let i = 0; i < 3; i++) expectError(await from('203.0.113.5'), 401, NO_ACCOUNT);
    expectTooMany(await from('203.0.113.5', DEMO.operator), SIGNIN_REFUSED, 15 * 60);
    // The client cannot escape by writing its own entries left of what the proxy appended…
    expectTooMany(await from('192.0.2.1, 203.0.113.5', DEMO.operator), SIGNIN_REFUSED, 15 * 60);
    // …nor by a second trusted hop.
    expectTooMany(await from('203.0.113.5, 127.0.0.1', DEMO.operator), SIGNIN_REFUSED, 15 * 60);
    expect((await from('203.0.113.6', DEMO.operator)).status).toBe(200);
    expect((await from('192.0.2.1, 203.0.113.7', DEMO.operator)).status).toBe(200);
  });

  it('a success does not count against the address', async () => {
    for (let i = 0; i < 6; i++) expect((await from('203.0.113.20', DEMO.operator)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await from('203.0.113.20'), 401, NO_ACCOUNT);
    expect((await from('203.0.113.20', DEMO.operator)).status).toBe(429);
  });
});
