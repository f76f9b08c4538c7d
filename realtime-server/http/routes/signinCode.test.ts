import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { memoryLog } from '../../testing/memoryLog';
import { type SmtpListener, startSmtpListener } from '../../testing/smtpListener';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';
import { waitFor } from '../../testing/wait';

/**
 * SIGNIN_CODE=email, end to end: the three fields → 202 {codeRequired, challenge} and a mail
 * with a 6-digit code through a real SMTP listener → POST /api/auth/signin/verify → the
 * session. Single use, 10 minutes, 5 tries, stored hashed.
 */

const NO_ACCOUNT = 'No staff account matches this email, username and phone number';
const TOO_MANY = 'Too many wrong codes; sign in again';
const EXPIRED = 'This code has expired; sign in again';
const INVALID = 'This code is no longer valid; sign in again';
const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

let smtp: SmtpListener;
const logs = memoryLog('debug');

beforeAll(async () => { smtp = await startSmtpListener(); });
afterAll(() => smtp?.close());
const s = useTestServer(() => ({ env: { SIGNIN_CODE: 'email', SMTP_URL: smtp.url, SIGNIN_LIMIT_ACCOUNT: '1000', SIGNIN_CODE_MAILS_PER_CLIENT: '1000', SIGNIN_LIMIT_IP: '1000', SIGNIN_BACKOFF_AFTER: '1000' }, log: logs.log }));

const signIn = (body: unknown) => s.api('POST', '/api/auth/signin', { body });
const verify = (challenge: string, code: string) => s.api('POST', '/api/auth/signin/verify', { body: { challenge, code } });

/** Step one; then the code as the account's owner reads it in the delivered mail. */
async function challengeFor(who: { email: string; username: string; phone: string } = DEMO.operator) {
  const delivered = smtp.received.length;
  const res = await signIn(who);
  expect(res.status).toBe(202);
  const mail = await waitFor(() => smtp.received.slice(delivered).find((m) => m.to.includes(who.email.trim().toLowerCase())), 'the sign-in code mail');
  const code = /^\s+(\d{6})$/m.exec(mail.text)?.[1];
  expect(code, mail.text).toMatch(/^\d{6}$/);
  return { challenge: res.body.challenge as string, code: code!, mail };
}

const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The code a challenge points at. */
const codeRow = (db: typeof s.ctx.db, challenge: string) =>
  db('signin_challenges').join('signin_codes', 'signin_codes.id', 'signin_challenges.code_id').where('signin_challenges.challenge_hash', sha256(challenge)).first('signin_codes.*');

describe('SIGNIN_CODE=email', () => {
  // Each test starts with no live code (a sign-in while one is live mails nothing: signinLockout.test.ts).
  beforeEach(async () => { await s.ctx.db('signin_codes').whereNull('used_at').update({ expires_at: new Date(Date.now() - 1000).toISOString() }); });

  it('answers 202 {codeRequired, challenge} and opens no session until the mailed code comes back', async () => {
    const sessions = Number((await s.ctx.db('sessions').count({ n: '*' }).first())!.n);
    const { challenge, code, mail } = await challengeFor();
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect(Number((await s.ctx.db('sessions').count({ n: '*' }).first())!.n)).toBe(sessions);
    expect(mail.subject).toBe('Your Lifeline sign-in code');
    expect(mail.subject).not.toContain(code);
    expect(mail.text).toContain('Hello Operator,');
    expect(mail.text).toContain('within 10 minutes');
    expect(mail.text).not.toContain(challenge);
    const queued = await waitFor(async () => {
      const row = await s.ctx.db('outbox').where({ kind: 'signin-code', to_address: DEMO.operator.email }).orderBy('id', 'desc').first();
      return row?.status === 'sent' && row;
    }, 'the mail marked sent');
    expect(queued).toMatchObject({ case_id: null, links: '[]' });

    const res = await verify(challenge, code);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'token', 'user']);
    expect(res.body.user).toMatchObject({ email: DEMO.operator.email, role: 'operator', username: 'Operator' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await s.api('GET', '/api/auth/profile', { token: res.body.token })).status).toBe(200);
  });

  it('the 202 answer says nothing else, and a wrong set of fields mails nothing', async () => {
    const res = await signIn(DEMO.admin);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['challenge', 'codeRequired']);
    expect(res.body.codeRequired).toBe(true);
    const outbox = Number((await s.ctx.db('outbox').count({ n: '*' }).first())!.n);
    expectError(await expectNoWrite(s.ctx.db, () => signIn({ ...DEMO.admin, phone: '000' })), 401, NO_ACCOUNT);
    expect(Number((await s.ctx.db('outbox').count({ n: '*' }).first())!.n)).toBe(outbox);
  });

  it('stores the challenge and the code only as hashes, the code salted per code', async () => {
    const { challenge, code } = await challengeFor();
    const row = await codeRow(s.ctx.db, challenge);
    expect(row).toMatchObject({ attempts: 0, used_at: null });
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toBe(sha256(code)); // salted: no one table of 10^6 hashes opens every code
    expect(row.code_hash).toBe(sha256(`${row.code_salt}:${code}`));
    const tables = JSON.stringify([await s.ctx.db('signin_codes').select('*'), await s.ctx.db('signin_challenges').select('*')]);
    expect(tables).not.toContain(challenge);
    expect(tables).not.toMatch(new RegExp(`\\b${code}\\b`));
    // Valid for 10 minutes.
    const ttl = Date.parse(row.expires_at) - Date.parse(row.created_at);
    expect(ttl).toBe(10 * 60_000);
  });

  it('is single use: the same code again is refused and opens no second session', async () => {
    const { challenge, code } = await challengeFor();
    expect((await verify(challenge, code)).status).toBe(200);
    expectError(await expectNoWrite(s.ctx.db, () => verify(challenge, code)), 401, INVALID);
  });

  it('counts wrong codes, says how many tries are left, and kills the challenge at the 5th', async () => {
    const { challenge, code } = await challengeFor();
    const wrong = otherCode(code);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await verify(challenge, wrong)).body.error);
    expect(answers).toEqual(['Wrong code; 4 tries left', 'Wrong code; 3 tries left', 'Wrong code; 2 tries left', 'Wrong code; 1 try left', TOO_MANY]);
    // Dead: the right code no longer helps, and nothing more is counted.
    expectError(await expectNoWrite(s.ctx.db, () => verify(challenge, code)), 401, TOO_MANY);
    expect((await codeRow(s.ctx.db, challenge)).attempts).toBe(5);
  });

  it('the right code on the 5th try still works', async () => {
    const { challenge, code } = await challengeFor();
    for (let i = 0; i < 4; i++) expect((await verify(challenge, otherCode(code))).status).toBe(401);
    expect((await verify(challenge, code)).status).toBe(200);
  });

  it('five wrong codes sent at once cannot become more than five tries', async () => {
    const { challenge, code } = await challengeFor();
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(challenge, otherCode(code))));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    expect((await codeRow(s.ctx.db, challenge)).attempts).toBe(5);
    expectError(await verify(challenge, code), 401, TOO_MANY);
  });

  it('expires after 10 minutes', async () => {
    const { challenge, code } = await challengeFor();
    await s.ctx.db('signin_codes').where({ id: (await codeRow(s.ctx.db, challenge)).id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    expectError(await expectNoWrite(s.ctx.db, () => verify(challenge, code)), 401, EXPIRED);
  });

  it('a sign-in while a code is live mails nothing: its challenge takes that code, which opens one session, by whichever challenge sends it first', async () => {
    const first = await challengeFor();
    const outbox = Number((await s.ctx.db('outbox').count({ n: '*' }).first())!.n);
    const second = await signIn(DEMO.operator);
    expect(second.status).toBe(202);
    expect(second.body.challenge).not.toBe(first.challenge);
    expect(Number((await s.ctx.db('outbox').count({ n: '*' }).first())!.n)).toBe(outbox);
    expect((await verify(second.body.challenge, first.code)).status).toBe(200);
    expectError(await verify(first.challenge, first.code), 401, INVALID); // used: every challenge of the code is dead
  });

  it('wrong codes count on the code, whichever challenge sends them: more challenges buy no more guesses', async () => {
    const first = await challengeFor();
    const second = (await signIn(DEMO.operator)).body.challenge as string;
    for (let i = 0; i < 3; i++) expect((await verify(first.challenge, otherCode(first.code))).status).toBe(401);
    expectError(await verify(second, otherCode(first.code)), 401, 'Wrong code; 1 try left');
    expectError(await verify(second, otherCode(first.code)), 401, TOO_MANY);
    expectError(await verify(first.challenge, first.code), 401, TOO_MANY);
  });

  it('a challenge is not a session and a session token is not a challenge', async () => {
    const { challenge, code } = await challengeFor();
    expectError(await s.api('GET', '/api/auth/profile', { token: challenge }), 401, 'Your session has expired or was revoked; please sign in again');
    const { body } = await verify(challenge, code);
    expectError(await verify(body.token, code), 401, INVALID);
  });

  it('refuses an operator deactivated between the two steps', async () => {
    const admin = await challengeFor(DEMO.admin).then(({ challenge, code }) => verify(challenge, code)).then((r) => r.body.token);
    const who = { email: 'twostep@lifeline.test', username: 'Two Step', phone: '555 0808' };
    const created = await s.api('POST', '/api/users', { token: admin, body: { name: who.username, email: who.email, phone: who.phone, shift: 2, gender: 1 } });
    expect(created.status).toBe(201);
    const { challenge, code } = await challengeFor(who);
    const { id, ...fields } = created.body.user;
    expect((await s.api('PUT', `/api/users/${id}`, { token: admin, body: { ...pick(fields), active: false } })).status).toBe(200);
    expectError(await verify(challenge, code), 401, NO_ACCOUNT);
  });

  it.each([
    [{ code: '123456' }, 'challenge: required'],
    [{ challenge: 'x' }, 'code: required'],
    [{ challenge: 'x', code: 'abcdef' }, 'code: must be the 6 digits from the e-mail'],
    [{ challenge: 'x', code: '12345' }, 'code: must be the 6 digits from the e-mail'],
    [{ challenge: 'x', code: 123456 }, 'code: Invalid input: expected string, received number'],
  ])('answers 400 for %j', async (body, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/auth/signin/verify', { body })), 400, error);
  });

  it('accepts the code typed with a space or a dash; an unknown challenge is refused', async () => {
    const { challenge, code } = await challengeFor();
    expectError(await verify('no-such-challenge', code), 401, INVALID);
    expect((await verify(challenge, `${code.slice(0, 3)} ${code.slice(3)}`)).status).toBe(200);
  });

  it('codes are 6 random digits', async () => {
    const codes = [];
    for (let i = 0; i < 6; i++) {
      const { challenge, code } = await challengeFor();
      codes.push(code);
      expect((await verify(challenge, code)).status).toBe(200); // used: the next sign-in mails a new one
    }
    expect(new Set(codes).size).toBeGreaterThan(1);
  });

  it('never logs a code, a challenge or a session token', async () => {
    const { challenge, code } = await challengeFor();
    const { body } = await verify(challenge, code);
    const text = logs.lines.join('\n');
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(text).not.toContain(challenge);
    expect(text).not.toContain(body.token);
    expect(text).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});

/** The user fields PUT /api/users accepts. */
const pick = (u: Record<string, unknown>) => ({ name: u.name, email: u.email, phone: u.phone, address: u.address ?? undefined, location: u.location ?? undefined, shift: u.shift, gender: u.gender });

describe('SIGNIN_CODE=email with the waits (SIGNIN_BACKOFF_AFTER=3, TRUSTED_PROXY=127.0.0.1)', () => {
  const t = useTestServer({ env: { SIGNIN_CODE: 'email', SIGNIN_BACKOFF_AFTER: '3', TRUSTED_PROXY: '127.0.0.1,::1' } });

  /** Without SMTP_URL the code waits in the outbox. */
  async function start(who: { email: string; username: string; phone: string } = DEMO.operator, client = '198.51.100.1') {
    const res = await t.api('POST', '/api/auth/signin', { body: who, headers: { 'x-forwarded-for': client } });
    expect(res.status).toBe(202);
    const mail = await t.ctx.db('outbox').where({ kind: 'signin-code', to_address: who.email }).orderBy('id', 'desc').first();
    return { challenge: res.body.challenge as string, code: /^\s+(\d{6})$/m.exec(mail.body_text)![1] };
  }
  const verifyOn = (challenge: string, code: string, client = '198.51.100.1') =>
    t.api('POST', '/api/auth/signin/verify', { body: { challenge, code }, headers: { 'x-forwarded-for': client } });

  it('wrong codes count against the account × client until a sign-in completes, so new challenges do not buy that client more guesses (a new code may still be asked for); another client signs in', async () => {
    // The code step waits after one challenge's worth of tries (5) more than the fields: 3 + 5 = 8.
    const first = await start();
    for (let i = 1; i <= 5; i++) expect((await verifyOn(first.challenge, otherCode(first.code))).status).toBe(401); // 1–5: the challenge dies
    const second = await start(); // the right fields: no failure
    for (let i = 6; i <= 8; i++) expect((await verifyOn(second.challenge, otherCode(second.code))).status).toBe(401); // 8: the client now waits
    const refused = await verifyOn(second.challenge, second.code);
    expectError(refused, 429, /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The fields step waits apart: the owner who mistyped codes can have a new one mailed, but its code still waits.
    const third = await start();
    expectError(await verifyOn(third.challenge, third.code), 429, /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    const other = await start(DEMO.operator, '198.51.100.2');
    expect((await verifyOn(other.challenge, other.code, '198.51.100.2')).status).toBe(200);
  });

  it('a completed sign-in clears the count', async () => {
    for (let i = 0; i < 3; i++) {
      const { challenge, code } = await start(DEMO.admin, '198.51.100.3');
      expect((await verifyOn(challenge, otherCode(code), '198.51.100.3')).status).toBe(401);
      expect((await verifyOn(challenge, code, '198.51.100.3')).status).toBe(200);
    }
  });
});

// The code mails per account × client and per account, and the owner's way in while they are spent: signinLockout.test.ts.

describe('an account under a wide attack, SIGNIN_CODE=off, SMTP_URL set (SIGNIN_LIMIT_ACCOUNT=4)', () => {
  const attackLogs = memoryLog('info');
  const t = useTestServer(() => ({ env: { SMTP_URL: smtp.url, SIGNIN_LIMIT_ACCOUNT: '4', TRUSTED_PROXY: '127.0.0.1,::1' }, log: attackLogs.log }));

  const from = (client: string, body: unknown) => t.api('POST', '/api/auth/signin', { body, headers: { 'x-forwarded-for': client } });

  it('is not locked: the right fields from a new client get the e-mailed code step (202), and the mailed code completes the sign-in', async () => {
    expect((await from('192.0.2.200', DEMO.operator)).status).toBe(200); // before the attack: no code step
    for (let i = 1; i <= 4; i++) expectError(await from(`192.0.2.${i}`, { ...DEMO.operator, phone: '000' }), 401, NO_ACCOUNT);
    const delivered = smtp.received.length;
    const res = await from('192.0.2.100', DEMO.operator);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['challenge', 'codeRequired']);
    const mail = await waitFor(() => smtp.received.slice(delivered).find((m) => m.to.includes(DEMO.operator.email)), 'the sign-in code mail');
    expect(mail.subject).toBe('Your Lifeline sign-in code');
    const code = /^\s+(\d{6})$/m.exec(mail.text)![1];
    const signed = await t.api('POST', '/api/auth/signin/verify', { body: { challenge: res.body.challenge, code }, headers: { 'x-forwarded-for': '192.0.2.100' } });
    expect(signed.status).toBe(200);
    expect(signed.body.user).toMatchObject({ email: DEMO.operator.email, role: 'operator' });
    expect((await t.api('GET', '/api/auth/profile', { token: signed.body.token })).status).toBe(200);
    // One of the failing clients gets the same step with the right fields: it failed once, under its free tries.
    expect((await from('192.0.2.1', DEMO.operator)).status).toBe(202);
    // An account nobody attacks signs in at once.
    expect((await from('192.0.2.100', DEMO.admin)).status).toBe(200);
    const noted = attackLogs.entries().filter((e) => /under attack/.test(String(e.msg)));
    expect(noted.length).toBeGreaterThan(0);
    expect(noted.every((e) => e.level === 30)).toBe(true); // mail reaches the owner: information, not a warning
  });
});

describe('SIGNIN_CODE=off (the default)', () => {
  const t = useTestServer();

  it('signs in at once with the three fields and mails nothing', async () => {
    const before = Number((await t.ctx.db('outbox').count({ n: '*' }).first())!.n);
    const signed = await t.api('POST', '/api/auth/signin', { body: DEMO.operator });
    expect(signed.status).toBe(200);
    expect(signed.body.token).toEqual(expect.any(String));
    expect(Number((await t.ctx.db('outbox').count({ n: '*' }).first())!.n)).toBe(before);
    expectError(await t.api('POST', '/api/auth/signin/verify', { body: { challenge: 'anything', code: '123456' } }), 401, INVALID);
  });
});
