import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { DEMO } from '../../testing/demoAccounts';
import { userId } from '../../testing/dispatchHelpers';
import { type SmtpListener, startSmtpListener } from '../../testing/smtpListener';
import { type TestServer, useTestServer } from '../../testing/testServer';
import { waitFor } from '../../testing/wait';

/**
 * Issue 26 item 4: with SIGNIN_CODE=email a stranger who knows a staff member's e-mail, name and
 * phone must not be able to lock its owner out. The owner can always type the code in the
 * mailbox: a sign-in while a code is live takes that code and mails nothing; mails count per
 * account × client (3) and per account (SIGNIN_LIMIT_ACCOUNT), and the account's cap refuses only
 * a sign-in with no live code to enter. An admin sees the account's counts and clears them.
 */

type Who = { email: string; username: string; phone: string };
const REFUSED = /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/;
const OWNER = DEMO.operator;
const owner = '198.51.100.200';

let smtp: SmtpListener;
beforeAll(async () => { smtp = await startSmtpListener(); });
afterAll(() => smtp?.close());

const codeOf = (text: string) => /^\s+(\d{6})$/m.exec(text)?.[1];
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

function client(t: TestServer) {
  const signIn = (who: Who, from: string) => t.api('POST', '/api/auth/signin', { body: who, headers: { 'x-forwarded-for': from } });
  const verify = (challenge: string, code: string, from: string) =>
    t.api('POST', '/api/auth/signin/verify', { body: { challenge, code }, headers: { 'x-forwarded-for': from } });
  /** Code mails delivered to an address through the SMTP listener (what its owner's mailbox holds). */
  const mailbox = (who: Who) => smtp.received.filter((m) => m.to.includes(who.email) && m.subject === 'Your Lifeline sign-in code');
  /** The code mails the server queued for an address (all of them, sent or not). */
  const mailsQueued = async (who: Who) => Number((await t.ctx.db('outbox').where({ kind: 'signin-code', to_address: who.email }).count({ n: '*' }).first())!.n);
  /** The code of the latest mail queued to the address, as its owner reads it in the mailbox once delivered (the stored copy drops the code once sent). */
  async function latestCode(who: Who) {
    const row = await t.ctx.db('outbox').where({ kind: 'signin-code', to_address: who.email }).orderBy('id', 'desc').first();
    const messageId = `<outbox-${row.id}.${Date.parse(row.created_at)}@`; // the outbox's stable Message-ID (each describe's server counts ids from 1)
    const mail = await waitFor(() => mailbox(who).find((m) => m.headers['message-id']?.startsWith(messageId)), 'the latest code mail delivered');
    return codeOf(mail.text)!;
  }
  /** A stranger with the three fields: signs in, then spends the code's five tries (it never sees the mail). */
  async function burn(from: string) {
    const res = await signIn(OWNER, from);
    if (res.status !== 202) return res.status;
    const code = await latestCode(OWNER); // read only to be sure of typing a wrong one
    for (let i = 0; i < 5; i++) expect((await verify(res.body.challenge, otherCode(code), from)).status).toBe(401);
    return 202;
  }
  /** An admin's session through the code step (its own account, from its own address). */
  async function adminSession() {
    const res = await signIn(DEMO.admin, '192.0.2.250');
    expect(res.status).toBe(202);
    const signed = await verify(res.body.challenge, await latestCode(DEMO.admin), '192.0.2.250');
    expect(signed.status).toBe(200);
    return signed.body.token as string;
  }
  return { signIn, verify, mailbox, mailsQueued, latestCode, burn, adminSession };
}

describe('SIGNIN_CODE=email: a stranger cannot lock the owner out (defaults: SIGNIN_LIMIT_ACCOUNT=10)', () => {
  const t = useTestServer(() => ({ env: { SIGNIN_CODE: 'email', SMTP_URL: smtp.url, TRUSTED_PROXY: '127.0.0.1,::1' } }));
  const c = client(t);

  it('10 sign-ins by a stranger (from one address and from ten) mail one code; the owner from a fresh address then types the code in the mailbox and is in', async () => {
    for (let i = 1; i <= 5; i++) expect((await c.signIn(OWNER, '203.0.113.1')).status).toBe(202);
    for (let i = 2; i <= 6; i++) expect((await c.signIn(OWNER, `203.0.113.${i}`)).status).toBe(202);
    const res = await c.signIn(OWNER, owner);
    expect(res.status).toBe(202);
    expect(await c.mailsQueued(OWNER)).toBe(1); // the stranger is capped: one mail for ten sign-ins, none for the owner's
    const signed = await c.verify(res.body.challenge, await c.latestCode(OWNER), owner);
    expect(signed.status).toBe(200);
    expect(signed.body.user).toMatchObject({ email: OWNER.email });
    // Used: every challenge of that code is dead, the stranger's too; the next sign-in mails a new code.
    expect((await c.signIn(OWNER, '203.0.113.1')).status).toBe(202);
    expect(await c.mailsQueued(OWNER)).toBe(2);
  });
});

describe('SIGNIN_CODE=email: strangers who also spend every code (SIGNIN_LIMIT_ACCOUNT=5, waits off)', () => {
  const t = useTestServer(() => ({ env: { SIGNIN_CODE: 'email', SMTP_URL: smtp.url, TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_ACCOUNT: '5', SIGNIN_BACKOFF_AFTER: '1000', SIGNIN_LIMIT_IP: '1000' } }));
  const c = client(t);

  it('one address has at most 3 codes mailed; the owner from a fresh address gets one of its own and is in', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await c.burn('203.0.113.10'));
    expect(answers).toEqual([202, 202, 202, 429, 429]);
    expect(await c.mailsQueued(OWNER)).toBe(3);
    const res = await c.signIn(OWNER, owner);
    expect(res.status).toBe(202);
    expect(await c.mailsQueued(OWNER)).toBe(4);
    expect((await c.verify(res.body.challenge, await c.latestCode(OWNER), owner)).status).toBe(200);
  });

});

describe('SIGNIN_CODE=email: the account\'s mails spent (SIGNIN_LIMIT_ACCOUNT=5, waits off)', () => {
  const t = useTestServer(() => ({ env: { SIGNIN_CODE: 'email', SMTP_URL: smtp.url, TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_ACCOUNT: '5', SIGNIN_BACKOFF_AFTER: '1000', SIGNIN_LIMIT_IP: '1000' } }));
  const c = client(t);

  it('with the account\'s mails spent, a code already mailed still lets the owner in (no new mail); with none left the sign-in is refused, an admin sees until when, clears it, and the owner is in', async () => {
    const admin = await c.adminSession();
    const id = await userId(t, OWNER.email);
    const limits = () => t.api('GET', `/api/users/${id}/signin-limits`, { token: admin });
    const before = await c.mailsQueued(OWNER);
    // Five codes mailed: three burnt from .11, one from .12, one left live from .13.
    for (const from of ['203.0.113.11', '203.0.113.11', '203.0.113.11', '203.0.113.12']) expect(await c.burn(from)).toBe(202);
    expect((await c.signIn(OWNER, '203.0.113.13')).status).toBe(202);
    expect(await c.mailsQueued(OWNER)).toBe(before + 5);
    expect((await limits()).body).toMatchObject({ codeMails: 5, codeMailLimit: 5, limitedUntil: expect.any(String) });

    // The owner types the code already in the mailbox: 202 without a mail, then in.
    const res = await c.signIn(OWNER, owner);
    expect(res.status).toBe(202);
    expect(await c.mailsQueued(OWNER)).toBe(before + 5);
    const ownerIn = await c.verify(res.body.challenge, await c.latestCode(OWNER), owner);
    expect(ownerIn.status).toBe(200);

    // Used; a stranger's next sign-in finds no live code and the mails spent: refused, nothing written.
    const refused = await expectNoWrite(t.ctx.db, () => c.signIn(OWNER, '203.0.113.14'));
    expectError(refused, 429, REFUSED);
    const seen = await limits();
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('no-store');
    const until = Date.parse(seen.body.limitedUntil);
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    expect(Object.keys(seen.body).sort()).toEqual(['codeMailLimit', 'codeMails', 'failureLimit', 'failures', 'limitedUntil']);

    // An operator may neither see nor clear (even their own); an unknown account is 404.
    const denied = "Only admins can see and clear a staff member's sign-in limits";
    expectError(await t.api('GET', `/api/users/${id}/signin-limits`, { token: ownerIn.body.token }), 403, denied);
    expectError(await expectNoWrite(t.ctx.db, () => t.api('DELETE', `/api/users/${id}/signin-limits`, { token: ownerIn.body.token })), 403, denied);
    expect((await limits()).body.codeMails).toBe(5);
    expectError(await t.api('GET', '/api/users/999999/signin-limits', { token: admin }), 404, 'Operator not found');
    expectError(await t.api('DELETE', `/api/users/${id}/signin-limits`), 401, 'Authentication required');

    const cleared = await t.api('DELETE', `/api/users/${id}/signin-limits`, { token: admin });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ codeMails: 0, failures: 0, limitedUntil: null });
    const again = await c.signIn(OWNER, owner);
    expect(again.status).toBe(202);
    expect(await c.mailsQueued(OWNER)).toBe(before + 6);
    expect((await c.verify(again.body.challenge, await c.latestCode(OWNER), owner)).status).toBe(200);
  });
});
