import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import { type SmtpListener, startSmtpListener } from '../../testing/smtpListener';
import { type TestServer, startTestServer, useTestServer } from '../../testing/testServer';
import { waitFor } from '../../testing/wait';
import { DEMO } from '../../testing/demoAccounts';

/**
 * The sign-in counters hold across nodes (REDIS_URL): one client's failures on one account
 * count the same on whichever node they land, and so do an account's failures from many
 * clients. Skipped without REDIS_URL.
 */
const REDIS_URL = process.env.REDIS_URL ?? '';
const NO_ACCOUNT = 'No staff account matches this email, username and phone number';
const SIGNIN_REFUSED = /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/;

describe.skipIf(!REDIS_URL)('sign-in limits on two nodes over Redis', () => {
  let smtp: SmtpListener;
  const prefix = `lifeline-test-${randomUUID()}`;
  const env = () => ({ REDIS_URL, REDIS_PREFIX: prefix, TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_ACCOUNT: '20', SMTP_URL: smtp.url });

  beforeAll(async () => { smtp = await startSmtpListener(); });
  afterAll(async () => {
    await smtp?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  const a = useTestServer(() => ({ env: env() }));
  const b = useTestServer(() => ({ env: { ...env(), DATABASE_URL: a.config.databaseUrl } }));

  const signIn = (node: TestServer, client: string, body: unknown) => node.api('POST', '/api/auth/signin', { body, headers: { 'x-forwarded-for': client } });

  it("one client's failures on one account add up across nodes: after 5 (3 on A, 2 on B) it waits on both; a success on either clears them", async () => {
    const client = '2001:db8:99:1::1';
    for (const node of [a, a, a, b, b]) expectError(await signIn(node, client, { ...DEMO.admin, phone: '000' }), 401, NO_ACCOUNT);
    for (const node of [a, b]) {
      const refused = await signIn(node, '2001:db8:99:1::2', DEMO.admin); // the same /64
      expectError(refused, 429, SIGNIN_REFUSED);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await signIn(b, '198.51.100.40', DEMO.admin)).status).toBe(200);
    // The wait is cleared only by the right fields from that client, after it: a fresh pair starts over.
    const other = '198.51.100.41';
    for (const node of [a, b, a, b]) expectError(await signIn(node, other, { ...DEMO.admin, phone: '000' }), 401, NO_ACCOUNT);
    expect((await signIn(b, other, DEMO.admin)).status).toBe(200);
    for (const node of [a, b, a, b]) expectError(await signIn(node, other, { ...DEMO.admin, phone: '000' }), 401, NO_ACCOUNT);
    expect((await signIn(a, other, DEMO.admin)).status).toBe(200);
  });

  it("an account's failures from many clients add up across nodes: after 20 (10 on each) the right fields get the code step on either node", async () => {
    for (let i = 1; i <= 20; i++) expectError(await signIn(i % 2 ? a : b, `192.0.2.${i}`, { ...DEMO.operator, phone: '000' }), 401, NO_ACCOUNT);
    expect((await signIn(a, '192.0.2.1', DEMO.operator)).status).toBe(202);
    for (const node of [a, b]) {
      const res = await signIn(node, '192.0.2.77', DEMO.operator);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ codeRequired: true, challenge: expect.any(String) });
    }
  });

  it('code mails hold across nodes: a stranger\'s 10 sign-ins (5 on each) mail one code; the owner on the other node types it and is in; an admin on B sees and clears what A counted', async () => {
    const code = async (node: TestServer, email: string) => {
      const row = await node.ctx.db('outbox').where({ kind: 'signin-code', to_address: email }).orderBy('id', 'desc').first();
      const messageId = `<outbox-${row.id}.${Date.parse(row.created_at)}@`;
      const mail = await waitFor(() => smtp.received.find((m) => m.headers['message-id']?.startsWith(messageId)), 'the code mail');
      return /^\s+(\d{6})$/m.exec(mail.text)![1];
    };
    const verifyOn = (node: TestServer, from: string, challenge: string, c: string) => node.api('POST', '/api/auth/signin/verify', { body: { challenge, code: c }, headers: { 'x-forwarded-for': from } });
    const coded = { ...env(), SIGNIN_CODE: 'email', REDIS_PREFIX: `${prefix}-codes` };
    const [ca, cb] = [await startTestServer({ env: { ...coded, DATABASE_URL: a.config.databaseUrl } }), await startTestServer({ env: { ...coded, DATABASE_URL: a.config.databaseUrl } })];
    try {
      const mails = async () => Number((await ca.ctx.db('outbox').where({ kind: 'signin-code', to_address: DEMO.operator.email }).count({ n: '*' }).first())!.n);
      // The code the previous test had mailed (under attack) is over: this one starts with none live.
      await ca.ctx.db('signin_codes').whereNull('used_at').update({ expires_at: new Date(Date.now() - 1000).toISOString() });
      const before = await mails();
      for (let i = 1; i <= 10; i++) expect((await signIn(i % 2 ? ca : cb, `203.0.113.${i}`, DEMO.operator)).status).toBe(202);
      expect(await mails()).toBe(before + 1);
      const res = await signIn(cb, '198.51.100.90', DEMO.operator);
      expect(res.status).toBe(202);
      expect((await verifyOn(cb, '198.51.100.90', res.body.challenge, await code(cb, DEMO.operator.email))).status).toBe(200);

      // Three codes spent from one address on A: its share is gone on B too.
      for (let i = 0; i < 3; i++) {
        const r = await signIn(ca, '203.0.113.50', DEMO.operator);
        expect(r.status).toBe(202);
        expect((await verifyOn(ca, '203.0.113.50', r.body.challenge, await code(ca, DEMO.operator.email))).status).toBe(200);
      }
      expectError(await signIn(cb, '203.0.113.50', DEMO.operator), 429, SIGNIN_REFUSED);

      const adminChallenge = await signIn(ca, '192.0.2.240', DEMO.admin);
      const admin = (await verifyOn(ca, '192.0.2.240', adminChallenge.body.challenge, await code(ca, DEMO.admin.email))).body.token as string;
      const id = (await cb.ctx.db('users').where({ email: DEMO.operator.email }).first()).id as number;
      expect((await cb.api('GET', `/api/users/${id}/signin-limits`, { token: admin })).body).toMatchObject({ codeMails: 4, limitedUntil: null });
      expect((await cb.api('DELETE', `/api/users/${id}/signin-limits`, { token: admin })).body).toMatchObject({ codeMails: 0, limitedUntil: null });
      expect((await ca.api('GET', `/api/users/${id}/signin-limits`, { token: admin })).body).toMatchObject({ codeMails: 0 });
    } finally {
      await ca.dispose();
      await cb.dispose();
    }
  });
});
