import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISO_TIME, PUBLIC_URL, dispatch, dispatchCase, driverOf, expectStatus, initiateTracking, outboxFor, plateOf, sha256Hex, tokenInLink } from '../testing/dispatchHelpers';
import { freePort } from '../testing/serverProcess';
import { startSilentServer, startSmtpListener, type SmtpListener } from '../testing/smtpListener';
import { lastOutboxPass } from '../testing/outboxPass';
import { startTestServer, type TestServer, useTestServer } from '../testing/testServer';
import { DEMO } from '../testing/demoAccounts';
import { sleep, waitFor } from '../testing/wait';

/** A waiting call (pending, no ambulance): one mail, the patient's. */
const queueCall = async (s: TestServer, operator: string, to: string): Promise<string> =>
  expectStatus(await dispatch(s, operator, undefined, { status: 'pending', to }), 201, 'queue').body.caseId;

const outbox = async (s: TestServer, admin: string) => {
  const res = await s.api('GET', '/api/outbox', { token: admin });
  if (res.status !== 200) throw new Error(`GET /api/outbox answered ${res.status}`);
  return res.body.messages as any[];
};

describe('the outbox worker delivers through a real SMTP server', () => {
  let smtp: SmtpListener;
  beforeAll(async () => { smtp = await startSmtpListener(); });
  afterAll(() => smtp?.close());
  const s = useTestServer(() => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Lifeline Dispatch <dispatch@lifeline.test>' } }));
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  });

  it('sends the share-location, tracking and driver e-mails with the right links, then marks them sent', async () => {
    const caseId = await dispatchCase(s, operator, 1, { to: 'ravi@example.com', patientName: 'Ravi Kumar', description: 'Road accident' });
    // The dispatch mails the patient (share-location) and the crew (driver link); Send Tracker re-sends both links.
    expect((await initiateTracking(s, operator, caseId, 1)).status).toBe(200);

    await waitFor(() => smtp.received.length >= 4, 'four messages at the SMTP listener', 5000);
    await sleep(200); // nothing more arrives
    expect(smtp.received).toHaveLength(4);

    const byTo = (to: string) => smtp.received.filter((m) => m.to.includes(to));
    const patientMails = byTo('ravi@example.com');
    const driverMails = byTo(driverOf(1));
    expect(patientMails).toHaveLength(2);
    expect(driverMails).toHaveLength(2);
    for (const m of smtp.received) {
      expect(m.to).toHaveLength(1);
      expect(m.from).toBe('dispatch@lifeline.test');
    }

    const share = patientMails.find((m) => m.subject === 'Emergency services: please share your location')!;
    expect(share).toBeDefined();
    expect(share.headers.to).toBe('ravi@example.com');
    expect(share.text).toContain(`${PUBLIC_URL}/location/${caseId}`);
    expect(share.text).toContain('Hello Ravi Kumar,');

    expect(share.text).toContain(`Ambulance ${plateOf(1)} has been dispatched for your emergency.`);
    const dispatchViewer = tokenInLink(share.text, 'track', 1)!;
    expect(dispatchViewer).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const tracking = patientMails.find((m) => m.subject === `Your ambulance ${plateOf(1)} is on its way`)!;
    expect(tracking).toBeDefined();
    const viewer = tokenInLink(tracking.text, 'track', 1)!;
    expect(viewer).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(viewer).not.toBe(dispatchViewer);
    expect(tracking.text).not.toContain('/driver/');
    const driverMail = driverMails.find((m) => tokenInLink(m.text, 'track', 1) === viewer)!;
    const dispatchDriverMail = driverMails.find((m) => tokenInLink(m.text, 'track', 1) === dispatchViewer)!;
    expect(dispatchDriverMail.subject).toBe(`Dispatch: case ${caseId.slice(0, 8)} for ${plateOf(1)}`);

    expect(driverMail.subject).toBe(`Dispatch: case ${caseId.slice(0, 8)} for ${plateOf(1)}`);
    const driver = tokenInLink(driverMail.text, 'driver', 1)!;
    expect(driver).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenInLink(driverMail.text, 'track', 1)).toBe(viewer);
    for (const detail of [caseId, 'Ravi Kumar', 'ravi@example.com', 'Road accident']) expect(driverMail.text).toContain(detail);

    // The links in the mail are live: the tokens are the ones stored (hashed) for this case.
    const dispatchDriver = tokenInLink(dispatchDriverMail.text, 'driver', 1)!;
    const hashes = await s.ctx.db('track_tokens').where({ case_id: caseId }).pluck('token_hash');
    expect(hashes.sort()).toEqual([sha256Hex(dispatchViewer), sha256Hex(dispatchDriver), sha256Hex(viewer), sha256Hex(driver)].sort());
    expect((await s.api('GET', `/api/track/1?t=${viewer}`)).status).toBe(200);
    expect((await s.api('GET', `/api/track/1?t=${dispatchViewer}`)).status).toBe(200);

    const messages = await waitFor(async () => {
      const list = await outbox(s, admin);
      return list.length === 4 && list.every((m) => m.status === 'sent') ? list : undefined;
    }, 'the outbox to show four sent messages');
    for (const m of messages) {
      expect(m).toMatchObject({ status: 'sent', attempts: 1, last_error: null, case_id: caseId });
      expect(m.sent_at).toMatch(ISO_TIME);
    }
    expect(messages.map((m) => [m.kind, m.to]).sort()).toEqual([
      ['share-location', 'ravi@example.com'],
      ['tracking-driver', driverOf(1)],
      ['tracking-driver', driverOf(1)],
      ['tracking-patient', 'ravi@example.com'],
    ]);
  });

  it('once sent, a message keeps no live secret: its stored text and links, and GET /api/outbox, show each token as …', async () => {
    const delivered = smtp.received.length;
    const caseId = await dispatchCase(s, operator, 2, { to: 'secret@example.com' });
    expect((await initiateTracking(s, operator, caseId, 2)).status).toBe(200);
    await waitFor(() => smtp.received.length >= delivered + 4, 'four messages at the SMTP listener', 5000);
    const received = smtp.received.slice(delivered);
    // The recipients got the live links (the dispatch's and Send Tracker's)...
    const tokensIn = (text: string) => [...text.matchAll(/[?&]t=([\w-]+)/g)].map((m) => m[1]);
    const secrets = received.flatMap((m) => tokensIn(m.text));
    expect(secrets).toHaveLength(7); // location + viewer; driver + viewer, twice; viewer
    for (const t of secrets) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const viewer = tokenInLink(received.find((m) => m.subject === `Your ambulance ${plateOf(2)} is on its way`)!.text, 'track', 2)!;

    const rows = await waitFor(async () => {
      const list = await outboxFor(s, caseId);
      return list.length === 4 && list.every((m) => m.status === 'sent') ? list : undefined;
    }, 'the four messages marked sent');
    // ...the database keeps no token: neither in the body nor in the links, nor in a column of its own.
    for (const row of rows) for (const secret of secrets) expect(JSON.stringify(row)).not.toContain(secret);
    const byKind = Object.fromEntries(rows.map((m) => [m.kind, m]));
    expect(JSON.parse(byKind['tracking-patient'].links)).toEqual([`${PUBLIC_URL}/track/2?t=…`]);
    expect(JSON.parse(byKind['tracking-driver'].links)).toEqual([`${PUBLIC_URL}/driver/2?t=…`, `${PUBLIC_URL}/track/2?t=…`]);
    expect(byKind['tracking-driver'].body_text).toContain(`${PUBLIC_URL}/driver/2?t=…\n`);
    expect(byKind['tracking-driver'].body_text).toContain(`${PUBLIC_URL}/track/2?t=…\n`);
    expect(byKind['tracking-patient'].body_text).toContain(`${PUBLIC_URL}/track/2?t=…\n`);
    expect(JSON.parse(byKind['share-location'].links)).toEqual([`${PUBLIC_URL}/location/${caseId}?t=…`, `${PUBLIC_URL}/track/2?t=…`]);
    // The admin reads exactly what is stored.
    const listed = (await outbox(s, admin)).filter((m) => m.case_id === caseId);
    expect(listed).toHaveLength(4);
    for (const m of listed) for (const secret of secrets) expect(JSON.stringify(m)).not.toContain(secret);
    for (const m of listed) {
      const row = rows.find((r) => r.id === m.id)!;
      expect({ text: m.text, links: m.links }).toEqual({ text: row.body_text, links: JSON.parse(row.links) });
    }
    // The links still work for their holders: only the stored copy lost them.
    expect((await s.api('GET', `/api/track/2?t=${viewer}`)).status).toBe(200);
  });

  it('keeps the outbox for admins only', async () => {
    expect(await s.api('GET', '/api/outbox', { token: operator })).toMatchObject({ status: 403, body: { error: 'Only admins can read the outbox' } });
    expect(await s.api('GET', '/api/outbox')).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
  });
});

describe('an SMTP server that refuses the recipient', () => {
  let smtp: SmtpListener;
  beforeAll(async () => { smtp = await startSmtpListener({ rejectRcpt: true }); });
  afterAll(() => smtp?.close());
  const s = useTestServer(() => ({ env: { SMTP_URL: smtp.url } }));
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  });

  it('leaves the message queued with attempts and last_error, retries after a backoff, and delivers once the server accepts', async () => {
    // A waiting call: its one mail, the patient's.
    const caseId = await queueCall(s, operator, 'later@example.com');
    const failed = await waitFor(async () => {
      const [m] = await outboxFor(s, caseId);
      return m && m.attempts === 1 && m.status === 'queued' && m.last_error ? m : undefined;
    }, 'a failed first attempt');
    expect(smtp.state.rcptRejected).toBe(1);
    expect(failed.last_error).toMatch(/550/);
    expect(failed.sent_at).toBeNull();
    // Backoff: not retried on the next poll but a couple of seconds later.
    const retryIn = Date.parse(failed.next_attempt_at) - Date.now();
    expect(retryIn).toBeGreaterThan(1000);
    expect(retryIn).toBeLessThanOrEqual(2000);
    const [listed] = (await outbox(s, admin)).filter((m) => m.case_id === caseId);
    expect(listed).toMatchObject({ status: 'queued', attempts: 1, sent_at: null, last_error: failed.last_error });

    await sleep(800);
    expect((await outboxFor(s, caseId))[0].attempts).toBe(1);

    smtp.state.rejectRcpt = false;
    await waitFor(() => smtp.received.length === 1, 'delivery after the backoff', 5000);
    expect(smtp.received[0].to).toEqual(['later@example.com']);
    expect(smtp.received[0].text).toContain(`${PUBLIC_URL}/location/${caseId}`);
    const sent = await waitFor(async () => {
      const [m] = await outboxFor(s, caseId);
      return m.status === 'sent' ? m : undefined;
    }, 'the message marked sent');
    expect(sent).toMatchObject({ attempts: 2, last_error: null });
    expect(sent.sent_at).toMatch(ISO_TIME);
  });
});

describe('an SMTP port where nothing listens', () => {
  const s = useTestServer(async () => ({ env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}?ignoreTLS=true` } }));
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  });

  it('keeps the message queued with the connection error, and marks it failed (never deletes it) after the last attempt', async () => {
    const caseId = await queueCall(s, operator, 'nobody@example.com');
    const first = await waitFor(async () => {
      const [m] = await outboxFor(s, caseId);
      return m && m.attempts === 1 && m.status === 'queued' && m.last_error ? m : undefined;
    }, 'a failed first attempt');
    expect(first.last_error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(first.next_attempt_at)).toBeGreaterThan(Date.now());

    // Fast-forward to the last allowed attempt.
    const updated = await s.ctx.db('outbox').where({ id: first.id, status: 'queued' })
      .update({ attempts: 7, next_attempt_at: new Date(Date.now() - 1000).toISOString() });
    expect(updated).toBe(1);
    const failed = await waitFor(async () => {
      const [m] = await outboxFor(s, caseId);
      return m.status === 'failed' ? m : undefined;
    }, 'the message marked failed');
    expect(failed).toMatchObject({ attempts: 8, sent_at: null });
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    const listed = (await outbox(s, admin)).filter((m) => m.case_id === caseId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'failed', attempts: 8, to: 'nobody@example.com' });
  });

  it('a message that failed for good keeps no live secret either', async () => {
    const caseId = await dispatchCase(s, operator, 4, { to: 'nobody@example.com' });
    expect((await initiateTracking(s, operator, caseId, 4)).status).toBe(200);
    const rows = await waitFor(async () => {
      const list = await outboxFor(s, caseId);
      return list.length === 4 && list.every((m) => m.attempts >= 1 && m.status === 'queued') ? list : undefined;
    }, 'a failed first attempt of each');
    const viewer = tokenInLink(rows.find((m) => m.kind === 'tracking-patient')!.body_text, 'track', 4)!;
    expect(viewer).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Fast-forward each to its last allowed attempt (a message being retried right now is caught on the next poll).
    const failed = await waitFor(async () => {
      await s.ctx.db('outbox').where({ case_id: caseId, status: 'queued' }).where('attempts', '<', 7)
        .update({ attempts: 7, next_attempt_at: new Date(Date.now() - 1000).toISOString() });
      const list = await outboxFor(s, caseId);
      return list.every((m) => m.status === 'failed') ? list : undefined;
    }, 'the messages marked failed');
    for (const m of failed) expect(JSON.stringify(m)).not.toMatch(/[?&]t=[A-Za-z0-9_-]/);
    expect(JSON.parse(failed.find((m) => m.kind === 'tracking-patient')!.links)).toEqual([`${PUBLIC_URL}/track/4?t=…`]);
    expect((await outbox(s, admin)).filter((m) => m.case_id === caseId).map((m) => m.links).flat())
      .toEqual(expect.arrayContaining([`${PUBLIC_URL}/track/4?t=…`, `${PUBLIC_URL}/driver/4?t=…`]));
  });
});

describe('a sign-in code mail (SIGNIN_CODE=email)', () => {
  let smtp: SmtpListener;
  beforeAll(async () => { smtp = await startSmtpListener(); });
  afterAll(() => smtp?.close());
  const s = useTestServer(() => ({ env: { SMTP_URL: smtp.url, SIGNIN_CODE: 'email' } }));

  it('reaches the user with its code, and once sent keeps no code in the outbox', async () => {
    const first = await s.api('POST', '/api/auth/signin', { body: DEMO.admin });
    expect(first.status).toBe(202);
    const mail = await waitFor(() => smtp.received.find((m) => m.to.includes(DEMO.admin.email)), 'the code e-mail');
    const code = /^\s+(\d{6})$/m.exec(mail.text)![1];
    const row = await waitFor(async () => {
      const r = await s.ctx.db('outbox').where({ kind: 'signin-code' }).first();
      return r?.status === 'sent' ? r : undefined;
    }, 'the code mail marked sent');
    expect(JSON.stringify(row)).not.toMatch(new RegExp(`(?<![0-9])${code}(?![0-9])`));
    expect(row.body_text).toContain('Your Lifeline sign-in code is:\n\n    …\n');
    const verified = await s.api('POST', '/api/auth/signin/verify', { body: { challenge: first.body.challenge, code } });
    expect(verified.status).toBe(200);
    const listed = await outbox(s, verified.body.token);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ kind: 'signin-code', status: 'sent', text: row.body_text, links: [] });
  });
});

describe('an SMTP server that accepts the connection and never answers', () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  afterAll(() => silent?.close());

  it('fails the attempt after the greeting timeout given in SMTP_URL, and keeps the message queued', async () => {
    silent = await startSilentServer();
    const s = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${silent.port}?ignoreTLS=true&greetingTimeout=300` } });
    try {
      const caseId = await dispatchCase(s, await s.signIn('operator'), 5);
      const m = await waitFor(async () => {
        const [row] = await outboxFor(s, caseId);
        return row && row.attempts === 1 && row.status === 'queued' && row.last_error ? row : undefined;
      }, 'the greeting timeout', 3000);
      expect(m.last_error).toMatch(/Greeting never received/);
      expect(silent.connections.length).toBeGreaterThanOrEqual(1);
    } finally {
      await s.dispose();
    }
  });

  it('does not hold up shutdown: stop() aborts the send in progress and puts the message back in the queue', async () => {
    const s = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${silent.port}?ignoreTLS=true` } });
    try {
      const before = silent.connections.length;
      const caseId = await dispatchCase(s, await s.signIn('operator'), 6);
      await waitFor(() => silent.connections.length > before, 'the worker to connect');
      await waitFor(async () => (await outboxFor(s, caseId))[0].status === 'sending', 'the message to be in flight');
      const started = Date.now();
      await s.outbox.stop();
      expect(Date.now() - started).toBeLessThan(1500);
      const [m] = await outboxFor(s, caseId);
      expect(m).toMatchObject({ status: 'queued', attempts: 1, last_error: 'Interrupted by shutdown', sent_at: null });
      expect(Date.parse(m.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    } finally {
      await s.dispose();
    }
  });
});

describe('without SMTP_URL', () => {
  const s = useTestServer();
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  });

  it('keeps every message queued and lists it in GET /api/outbox with its links', async () => {
    const caseId = await dispatchCase(s, operator, 4, { to: 'queued@example.com' });
    expect((await initiateTracking(s, operator, caseId, 4)).status).toBe(200);
    await lastOutboxPass(s);

    const messages = await outbox(s, admin);
    expect(messages).toHaveLength(4);
    for (const m of messages) {
      expect(m).toMatchObject({ status: 'queued', attempts: 0, sent_at: null, last_error: null, case_id: caseId });
      expect(m.created_at).toMatch(ISO_TIME);
    }
    // Newest first: Send Tracker's two, then the dispatch's two.
    expect(messages.map((m) => [m.kind, m.to])).toEqual([
      ['tracking-driver', driverOf(4)],
      ['tracking-patient', 'queued@example.com'],
      ['share-location', 'queued@example.com'],
      ['tracking-driver', driverOf(4)],
    ]);
    const [driverMail, trackingMail, shareMail, dispatchDriverMail] = messages;
    // A queued message keeps its live links: without SMTP the admin hands them on from here.
    const dispatchViewer = tokenInLink(shareMail.text, 'track', 4)!;
    expect(shareMail.links).toEqual([expect.stringMatching(new RegExp(`^${PUBLIC_URL}/location/${caseId}\\?t=[A-Za-z0-9_-]{43}$`)), `${PUBLIC_URL}/track/4?t=${dispatchViewer}`]);
    expect(shareMail.text).toContain(shareMail.links[0]);
    expect(dispatchDriverMail.links).toEqual([`${PUBLIC_URL}/driver/4?t=${tokenInLink(dispatchDriverMail.text, 'driver', 4)}`, `${PUBLIC_URL}/track/4?t=${dispatchViewer}`]);
    const viewer = tokenInLink(trackingMail.text, 'track', 4)!;
    expect(trackingMail.links).toEqual([`${PUBLIC_URL}/track/4?t=${viewer}`]);
    const driver = tokenInLink(driverMail.text, 'driver', 4)!;
    expect(driverMail.links).toEqual([`${PUBLIC_URL}/driver/4?t=${driver}`, `${PUBLIC_URL}/track/4?t=${viewer}`]);
  });
});
