import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import { type SmtpListener, startSmtpListener } from '../../testing/smtpListener';
import { type TestServer, useTestServer } from '../../testing/testServer';
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
});
