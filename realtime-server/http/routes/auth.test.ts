import { createHash } from 'node:crypto';
import { PRINCIPAL_TTL_MS } from '../../services/principalCache';
import { describe, expect, it, vi } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';

const NO_ACCOUNT = 'No staff account matches this email, username and phone number';
const EXPIRED = 'Your session has expired or was revoked; please sign in again';
const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

const s = useTestServer({ env: { SIGNIN_BACKOFF_AFTER: '1000' } });
// These tests are about which fields sign in, not about waits: one client fails on the operator's account many times here.

const signIn = (body: unknown) => s.api('POST', '/api/auth/signin', { body });
const profile = (token?: string) => s.api('GET', '/api/auth/profile', { token });
const userId = async (email: string) => (await s.ctx.db('users').where({ email }).first()).id as number;

describe('POST /api/auth/signin', () => {
  it('answers {token, expiresAt, user} for the demo operator', async () => {
    const started = Date.now();
    const res = await signIn(DEMO.operator);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'token', 'user']);
    expect(res.body.user).toEqual({ id: await userId(DEMO.operator.email), email: 'operator@lifeline.test', role: 'operator', username: 'Operator' });
    // Sessions last 12 hours.
    const expires = Date.parse(res.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(started + 12 * 3600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 12 * 3600_000);
  });

  it('answers role admin for the demo admin, signing in as the design card says (admin / 5550100)', async () => {
    const res = await signIn({ email: 'admin@lifeline.test', username: 'admin', phone: '5550100' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: 'admin@lifeline.test', role: 'admin', username: 'Admin' });
  });

  it.each([
    ['e-mail in any case, with spaces around it', { ...DEMO.operator, email: '  OPERATOR@Lifeline.TEST ' }],
    ['username trimmed and in any case', { ...DEMO.operator, username: '  oPeRaToR  ' }],
    ['phone with a dash', { ...DEMO.operator, phone: '555-0101' }],
    ['phone with brackets, spaces and dots', { ...DEMO.operator, phone: '(555) 01.01' }],
  ])('accepts the %s', async (_what, body) => {
    const res = await signIn(body);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('operator@lifeline.test');
  });

  it.each([
    ['no body at all', undefined, 'email: required'],
    ['an empty object', {}, 'email: required'],
    ['a missing username', { email: DEMO.operator.email, phone: DEMO.operator.phone }, 'username: required'],
    ['a missing phone', { email: DEMO.operator.email, username: 'Operator' }, 'phone: required'],
    ['an invalid e-mail', { ...DEMO.operator, email: 'operator-at-lifeline' }, 'email: Invalid email address'],
    ['a blank username', { ...DEMO.operator, username: '   ' }, 'username: required'],
    ['a blank phone', { ...DEMO.operator, phone: ' ' }, 'phone: required'],
    ['a phone without digits', { ...DEMO.operator, phone: 'call me' }, 'phone: must contain digits'],
    ['a username that is not text', { ...DEMO.operator, username: 42 }, 'username: Invalid input: expected string, received number'],
  ])('answers 400 "field: message" for %s, and opens no session', async (_what, body, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => signIn(body)), 400, error);
  });

  it.each([
    ['an unknown e-mail', { ...DEMO.operator, email: 'nobody@lifeline.test' }],
    ['a wrong username', { ...DEMO.operator, username: 'Operat0r' }],
    ['a wrong phone', { ...DEMO.operator, phone: '5550102' }],
    ['a phone with an extra digit', { ...DEMO.operator, phone: '55501010' }],
    ["another account's phone", { ...DEMO.operator, phone: DEMO.admin.phone }],
    ["another account's name", { ...DEMO.operator, username: DEMO.admin.username }],
  ])('answers 401 for %s, and opens no session', async (_what, body) => {
    expectError(await expectNoWrite(s.ctx.db, () => signIn(body)), 401, NO_ACCOUNT);
  });

  it('answers 401 for a deactivated account, and its open sessions stop working', async () => {
    const token = await s.signIn('operator');
    await s.ctx.db('users').where({ email: DEMO.operator.email }).update({ active: false });
    try {
      expectError(await signIn(DEMO.operator), 401, NO_ACCOUNT);
      expectError(await profile(token), 401, EXPIRED);
    } finally {
      await s.ctx.db('users').where({ email: DEMO.operator.email }).update({ active: true });
    }
    expect((await profile(token)).status).toBe(200);
  });

  it('answers 401 for an operator deleted by an admin', async () => {
    const admin = await s.signIn('admin');
    const who = { email: 'gone@lifeline.test', username: 'Gone Soon', phone: '555-0177' };
    const created = await s.api('POST', '/api/users', { token: admin, body: { name: who.username, email: who.email, phone: who.phone, shift: 1, gender: 0 } });
    expect(created.status).toBe(201);
    expect((await signIn(who)).status).toBe(200);
    expect((await s.api('DELETE', `/api/users/${created.body.user.id}`, { token: admin })).status).toBe(200);
    expectError(await signIn(who), 401, NO_ACCOUNT);
  });
});

describe('tokens and sessions', () => {
  it('issues a fresh random token of at least 128 bits on every sign-in', async () => {
    const tokens = await Promise.all(Array.from({ length: 5 }, () => s.signIn('operator')));
    expect(new Set(tokens).size).toBe(5);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(t.length * 6).toBeGreaterThanOrEqual(128); // base64url: 6 bits per character
    }
  });

  it('stores only the sha256 of the token with the session, never the token', async () => {
    const res = await signIn(DEMO.admin);
    const { token, expiresAt } = res.body;
    const session = await s.ctx.db('sessions').where({ token_hash: sha256(token) }).first();
    expect(session).toMatchObject({ user_id: await userId(DEMO.admin.email), expires_at: expiresAt, revoked_at: null });
    expect(session.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const everySession = JSON.stringify(await s.ctx.db('sessions').select('*'));
    expect(everySession).not.toContain(token);
  });

  it('refuses an expired session with 401', async () => {
    const token = await s.signIn('operator');
    expect((await profile(token)).status).toBe(200);
    await s.ctx.db('sessions').where({ token_hash: sha256(token) }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    // Changed behind the server's back (as another node would): seen once its remembered principal lapses.
    // The server runs in this process: its clock is moved past the TTL rather than waited out.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + PRINCIPAL_TTL_MS + 50 });
    try {
      expectError(await profile(token), 401, EXPIRED);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('POST /api/auth/signout', () => {
  it('revokes that session only: the same token then gets 401, another session of the user still works', async () => {
    const token = await s.signIn('operator');
    const other = await s.signIn('operator');
    const res = await s.api('POST', '/api/auth/signout', { token });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const session = await s.ctx.db('sessions').where({ token_hash: sha256(token) }).first();
    expect(session.revoked_at).toEqual(expect.any(String));
    expectError(await profile(token), 401, EXPIRED);
    expectError(await s.api('POST', '/api/auth/signout', { token }), 401, EXPIRED);
    expect((await profile(other)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expectError(await s.api('POST', '/api/auth/signout'), 401, 'Authentication required');
  });
});

describe('GET /api/auth/profile', () => {
  it('answers {user} with every profile field of the signed-in staff member and nothing internal', async () => {
    const res = await profile(await s.signIn('operator'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user']);
    expect(res.body.user).toEqual({
      id: await userId(DEMO.operator.email),
      name: 'Operator',
      email: 'operator@lifeline.test',
      phone: '5550101',
      address: null,
      role: 'operator',
      shift: 1,
      location: 'Dispatch Desk 1, Hyderabad',
      gender: 1,
      active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      version: 1,
    });
  });

  it("answers the admin's own profile for the admin", async () => {
    const res = await profile(await s.signIn('admin'));
    expect(res.body.user).toMatchObject({ name: 'Admin', email: 'admin@lifeline.test', role: 'admin', shift: 1, gender: 0 });
  });

  it('accepts the scheme in any case', async () => {
    const token = await s.signIn('operator');
    const res = await s.api('GET', '/api/auth/profile', { headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no Authorization header', {}, 'Authentication required'],
    ['a garbage token', { authorization: 'Bearer not-a-real-token' }, EXPIRED],
    ['a very long token', { authorization: `Bearer ${'x'.repeat(5000)}` }, EXPIRED],
    ['another scheme', { authorization: 'Basic b3BlcmF0b3I6eA==' }, EXPIRED],
  ])('answers 401 with %s', async (_what, headers: Record<string, string>, error) => {
    expectError(await s.api('GET', '/api/auth/profile', { headers }), 401, error);
  });

  it('answers 401 for the stored hash presented as a token', async () => {
    expectError(await profile(sha256(await s.signIn('operator'))), 401, EXPIRED);
  });
});
