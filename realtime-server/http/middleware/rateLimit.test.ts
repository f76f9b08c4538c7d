import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { dispatchCase, trackingTokens, shareLocation } from '../../testing/dispatchHelpers';
import { memoryLog } from '../../testing/memoryLog';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';
import { clientIp, proxyTrust } from '../../edge/clientIp';
import { linkRefusal, signinRefusal } from '../../edge/rateLimits';
import { backoffSeconds } from './rateLimit';

/**
 * Sign-in failures per account × client (exponential waits) and per client, link calls per
 * token or case, the 429 answer (Retry-After + a clear error), and which address is the client's.
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

describe('the waits of an account × client key', () => {
  it('are 1, 2, 4, 8, then 15 minutes (the cap) from the 5th counted attempt on, by default', () => {
    const defaults = { after: 5, seconds: 60 };
    expect([5, 6, 7, 8, 9, 10, 1000].map((n) => backoffSeconds(n, defaults))).toEqual([60, 120, 240, 480, 900, 900, 900]);
  });
  it('start at SIGNIN_BACKOFF_SECONDS after SIGNIN_BACKOFF_AFTER attempts', () => {
    expect([3, 4, 5].map((n) => backoffSeconds(n, { after: 3, seconds: 2 }))).toEqual([2, 4, 8]);
  });
});

describe('sign-in failures per account × client (TRUSTED_PROXY=127.0.0.1,::1; defaults: 5 free, then 1, 2, 4, 8, 15 min)', () => {
  const logs = memoryLog('info');
  const s = useTestServer({ env: { TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_IP: '1000', LINK_LIMIT_PER_MIN: '4' }, log: logs.log });
  let admin: string;
  let n = 0;
  beforeAll(async () => {
    admin = await s.signIn('admin');
  });

  /** A fresh operator for each test, so that one test's waits do not reach the next. */
  async function newOperator() {
    n += 1;
    const who = { email: `limit${n}@lifeline.test`, username: `Limit Tester ${n}`, phone: `555 07${String(n).padStart(2, '0')}` };
    const res = await s.api('POST', '/api/users', { token: admin, body: { name: who.username, email: who.email, phone: who.phone, shift: 1, gender: 0 } });
    expect(res.status).toBe(201);
    return who;
  }
  /** A client address no other test uses. */
  let clients = 0;
  const newClient = () => `198.51.${100 + Math.floor(++clients / 250)}.${clients % 250}`;
  const signIn = (body: unknown, client: string) => s.api('POST', '/api/auth/signin', { body, headers: { 'x-forwarded-for': client } });
  const wrong = (who: { phone: string }) => ({ ...who, phone: '000' });

  it('ten wrong sign-ins for a known e-mail from ten addresses lock nobody out: the operator and the admin sign in from an eleventh (no SMTP_URL: a warning is logged)', async () => {
    for (const who of [DEMO.operator, DEMO.admin]) {
      for (let i = 0; i < 12; i++) expectError(await signIn(wrong(who), newClient()), 401, NO_ACCOUNT);
      const res = await signIn(who, newClient());
      expect(res.status).toBe(200);
      expect(res.body.user.email).toBe(who.email);
      expect((await s.api('GET', '/api/auth/profile', { token: res.body.token })).status).toBe(200);
    }
    const warnings = logs.entries().filter((e) => e.level === 40 && /under attack/.test(String(e.msg)));
    expect(warnings.map((w) => w.userId).sort()).toEqual(await s.ctx.db('users').whereIn('email', [DEMO.operator.email, DEMO.admin.email]).pluck('id').then((ids) => ids.sort()));
    expect(JSON.stringify(warnings)).not.toContain('5550101');
  });

  it('a client that failed a few times (under the free five) still signs in with the right fields', async () => {
    const who = await newOperator();
    const client = newClient();
    for (let i = 0; i < 4; i++) expectError(await signIn(wrong(who), client), 401, NO_ACCOUNT);
    expect((await signIn(who, client)).status).toBe(200);
  });

  it('after 5 failures that client waits (429, Retry-After up to a minute), even with the right fields, and opens no session; another client signs in meanwhile', async () => {
    const who = await newOperator();
    const client = newClient();
    for (let i = 0; i < 5; i++) expectError(await signIn(wrong(who), client), 401, NO_ACCOUNT);
    const refused = await expectNoWrite(s.ctx.db, () => signIn(who, client));
    expectTooMany(refused, SIGNIN_REFUSED, 60);
    expect(refused.body.error).toBe('Too many sign-in attempts. Try again in 1 minute.');
    expectTooMany(await signIn(wrong(who), client), SIGNIN_REFUSED, 60);
    expect((await signIn(who, newClient())).status).toBe(200);
    // The wait is the pair's: the same client may still sign in to another account.
    expect((await signIn(await newOperator(), client)).status).toBe(200);
  });

  it('twenty wrong attempts at once from one client: five reach the check, the others wait', async () => {
    const who = await newOperator();
    const client = newClient();
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(wrong(who), client)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((st) => st === 401)).toHaveLength(5);
    expect(statuses.filter((st) => st === 429)).toHaveLength(15);
    expect((await signIn(who, newClient())).status).toBe(200);
  });

  it('counts the account by its normalised e-mail (case, spaces)', async () => {
    const who = await newOperator();
    const client = newClient();
    expectError(await signIn({ ...wrong(who), email: who.email.toUpperCase() }, client), 401, NO_ACCOUNT);
    expectError(await signIn({ ...wrong(who), email: `  ${who.email}  ` }, client), 401, NO_ACCOUNT);
    for (let i = 0; i < 3; i++) expectError(await signIn(wrong(who), client), 401, NO_ACCOUNT);
    expectTooMany(await signIn(who, client), SIGNIN_REFUSED, 60);
  });

  it("a successful sign-in clears that client's count for the account", async () => {
    const who = await newOperator();
    const client = newClient();
    for (let i = 0; i < 4; i++) expectError(await signIn(wrong(who), client), 401, NO_ACCOUNT);
    expect((await signIn(who, client)).status).toBe(200);
    for (let i = 0; i < 5; i++) expectError(await signIn(wrong(who), client), 401, NO_ACCOUNT);
    expectTooMany(await signIn(who, client), SIGNIN_REFUSED, 60);
  });

  it('counts an unknown account too, without telling it apart from a known one', async () => {
    const ghost = { email: 'ghost@lifeline.test', username: 'Ghost', phone: '555' };
    const client = newClient();
    for (let i = 0; i < 5; i++) expectError(await signIn(ghost, client), 401, NO_ACCOUNT);
    expectTooMany(await signIn(ghost, client), SIGNIN_REFUSED, 60);
  });

  it('does not count a request that fails validation (400): nothing was tried', async () => {
    const who = await newOperator();
    const client = newClient();
    for (let i = 0; i < 8; i++) expectError(await signIn({ email: who.email, username: who.username }, client), 400, 'phone: required');
    expect((await signIn(who, client)).status).toBe(200);
  });

  it('successful sign-ins are not limited', async () => {
    const client = newClient();
    for (let i = 0; i < 8; i++) expect((await signIn(DEMO.operator, client)).status).toBe(200);
  });

  it('IPv6: addresses inside one /64 are one client, a neighbouring /64 is another', async () => {
    const who = await newOperator();
    for (let i = 1; i <= 5; i++) expectError(await signIn(wrong(who), `2001:db8:77:1::${i}`), 401, NO_ACCOUNT);
    expectTooMany(await signIn(who, '2001:db8:77:1:ffff:ffff:ffff:ffff'), SIGNIN_REFUSED, 60);
    expectTooMany(await signIn(who, '[2001:db8:77:1::abcd]:443'), SIGNIN_REFUSED, 60);
    expect((await signIn(who, '2001:db8:77:2::1')).status).toBe(200);
  });

  it('an IPv4-mapped IPv6 client is its IPv4 client', async () => {
    const who = await newOperator();
    for (let i = 0; i < 5; i++) expectError(await signIn(wrong(who), '203.0.113.50'), 401, NO_ACCOUNT);
    expectTooMany(await signIn(who, '::ffff:203.0.113.50'), SIGNIN_REFUSED, 60);
    expectTooMany(await signIn(who, '::ffff:cb00:7132'), SIGNIN_REFUSED, 60);
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
      const share = (id: string, i: number) => shareLocation(s, id, { latitude: 17.4 + i / 1000, longitude: 78.5 });
      for (let i = 0; i < 4; i++) expect((await share(caseId, i)).status).toBe(200);
      expectTooMany(await expectNoWrite(s.ctx.db, () => share(caseId, 9)), LINK_REFUSED, 60);
      expect((await share(other, 0)).status).toBe(200);
    });

    it('POST /api/ambulances/{id}/position?t=: counted per driver token; staff (bearer) positions on their own count, per ambulance', async () => {
      const { driver } = await trackingTokens(s, operator, await dispatchCase(s, operator, 5), 5);
      const post = (id: number, query: string, token?: string) => s.api('POST', `/api/ambulances/${id}/position${query}`, { token, body: { latitude: 17.39, longitude: 78.48 } });
      for (let i = 0; i < 4; i++) expect((await post(5, `?t=${driver}`)).status).toBe(200);
      expectTooMany(await expectNoWrite(s.ctx.db, () => post(5, `?t=${driver}`)), LINK_REFUSED, 60);
      // Staff positions are limited like a link too, per staff member and ambulance (one the crew does not report for).
      for (let i = 0; i < 4; i++) expect((await post(7, '', operator)).status).toBe(200);
      expectTooMany(await expectNoWrite(s.ctx.db, () => post(7, '', operator)), LINK_REFUSED, 60);
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
  const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '4', SIGNIN_LIMIT_ACCOUNT: '100' } });

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
  const s = useTestServer({ env: { TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_IP: '3', SIGNIN_LIMIT_ACCOUNT: '100' } });

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

  it('counts an IPv6 client by its /64: rotating addresses inside it, across accounts, is one client', async () => {
    for (let i = 1; i <= 3; i++) expectError(await from(`2001:db8:5:9::${i}`, { ...DEMO.operator, email: `spray${i}@lifeline.test` }), 401, NO_ACCOUNT);
    expectTooMany(await from('2001:db8:5:9:1:2:3:4', DEMO.operator), SIGNIN_REFUSED, 15 * 60);
    expect((await from('2001:db8:5:a::1', DEMO.operator)).status).toBe(200);
  });
});

describe('the waits of one failing client double (SIGNIN_BACKOFF_AFTER=3, SIGNIN_BACKOFF_SECONDS=2)', () => {
  const s = useTestServer({ env: { TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_BACKOFF_AFTER: '3', SIGNIN_BACKOFF_SECONDS: '2' } });
  // The limiter's windows run on Date (rate-limiter-flexible's memory store): the test moves it past each wait.
  // Only Date is faked, and it keeps ticking, so sockets, timers and the database run as usual.
  beforeEach(() => { vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true }); });
  afterEach(() => { vi.useRealTimers(); });

  const from = (client: string, body: unknown = { ...DEMO.operator, phone: '000' }) => s.api('POST', '/api/auth/signin', { body, headers: { 'x-forwarded-for': client } });
  const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

  it('429 with a Retry-After of 2, then 4, then 8 seconds after each further failure; another client signs in throughout', async () => {
    const attacker = '203.0.113.66';
    for (let i = 0; i < 3; i++) expectError(await from(attacker), 401, NO_ACCOUNT);
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const refused = await from(attacker, DEMO.operator);
      expectTooMany(refused, SIGNIN_REFUSED, 60);
      waits.push(retryAfter(refused));
      expect((await from(`198.51.100.${round + 1}`, DEMO.operator)).status).toBe(200);
      if (round === 2) break;
      vi.advanceTimersByTime(waits[round] * 1000 + 100);
      expectError(await from(attacker), 401, NO_ACCOUNT);
    }
    // Each wait doubles the one before (give or take the second the answer took).
    expect(waits[0]).toBeLessThanOrEqual(2);
    expect(waits[1]).toBeGreaterThan(2);
    expect(waits[1]).toBeLessThanOrEqual(4);
    expect(waits[2]).toBeGreaterThan(4);
    expect(waits[2]).toBeLessThanOrEqual(8);
    expect((await from('198.51.100.9')).status).toBe(401); // other clients never waited
  }, 30_000);
});
