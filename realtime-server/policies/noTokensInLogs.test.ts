import { afterAll, describe, expect, it } from 'vitest';
import { type Mailbox, dispatchCase, expectStatus, locationToken, shareLocation, trackingTokens, updateCase } from '../testing/dispatchHelpers';
import { memoryLog } from '../testing/memoryLog';
import { startSmtpListener } from '../testing/smtpListener';
import { startTestServer, type TestServer } from '../testing/testServer';
import { DEMO } from '../testing/demoAccounts';
import { sleep, waitFor } from '../testing/wait';

/**
 * Tokens never appear in logs: a server logging at `debug` into memory is taken
 * through sign-in with a mailed code, dispatch, tracking links, driver positions over REST
 * and socket, link viewing, a hospital's page link (its page, socket, acknowledgement and
 * handover, a replaced link), bad links, sign-out and the outbox (queued without SMTP_URL, and
 * sent or refused by a real SMTP listener). No bearer token, link token, sign-in challenge
 * or sign-in code may appear in any line.
 */
const LIMITS = { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' };
const servers: TestServer[] = [];
afterAll(async () => { for (const s of servers) await s.dispose(); });

/** The secrets seen by clients during a run, by what they are. */
type Secrets = { what: string; value: string }[];

/** Signs in with the mailed code; returns the session token and records every secret on the way. */
async function signInWithCode(s: TestServer, who: 'admin' | 'operator', secrets: Secrets, mailbox?: Mailbox): Promise<string> {
  const body = who === 'admin'
    ? DEMO.admin
    : DEMO.operator;
  const seen = mailbox?.received.length ?? 0;
  const first = await s.api('POST', '/api/auth/signin', { body });
  expect(first.status).toBe(202);
  const { challenge } = first.body;
  secrets.push({ what: `${who} sign-in challenge`, value: challenge });
  // A sent code mail keeps no code in the outbox: with SMTP the code is read from what was delivered.
  const text = mailbox
    ? (await waitFor(() => mailbox.received.slice(seen).find((m) => m.to.includes(body.email) && /\b\d{6}\b/.test(m.text)), 'the code e-mail')).text
    : (await waitFor(() => s.ctx.db('outbox').where({ kind: 'signin-code', to_address: body.email }).orderBy('id', 'desc').first(), 'the code e-mail')).body_text;
  const code = /\b(\d{6})\b/.exec(text)![1];
  secrets.push({ what: `${who} sign-in code`, value: code });
  // A wrong code first: its refusal is logged like any request, without the code.
  const wrong = code === '000000' ? '111111' : '000000';
  expect((await s.api('POST', '/api/auth/signin/verify', { body: { challenge, code: wrong } })).status).toBe(401);
  const res = await s.api('POST', '/api/auth/signin/verify', { body: { challenge, code } });
  expect(res.status).toBe(200);
  secrets.push({ what: `${who} session token`, value: res.body.token });
  return res.body.token;
}

/** Everything a day of dispatching does with tokens. */
async function exercise(s: TestServer, secrets: Secrets, mailbox?: Mailbox) {
  const admin = await signInWithCode(s, 'admin', secrets, mailbox);
  const operator = await signInWithCode(s, 'operator', secrets, mailbox);
  expectStatus(await s.api('GET', '/api/auth/profile', { token: operator }), 200, 'profile');

  const caseId = await dispatchCase(s, operator, 1);
  const links = await trackingTokens(s, operator, caseId, 1, mailbox);
  secrets.push({ what: 'viewer token', value: links.viewer }, { what: 'driver token', value: links.driver });

  secrets.push({ what: 'patient location token', value: await locationToken(s, caseId) });
  expectStatus(await shareLocation(s, caseId, { latitude: 17.41, longitude: 78.47 }), 200, 'share');
  expectStatus(await s.api('GET', `/api/track/1?t=${links.viewer}`), 200, 'track');
  expectStatus(await s.api('GET', `/api/track/1?t=${links.driver}`), 200, 'track as driver');
  expectStatus(await s.api('POST', `/api/ambulances/1/position?t=${links.driver}`, { body: { latitude: 17.4, longitude: 78.5 } }), 200, 'driver position');
  expectStatus(await s.api('POST', `/api/ambulances/1/position?t=${links.viewer}`, { body: { latitude: 17.4, longitude: 78.5 } }), 403, 'viewer position');
  expectStatus(await s.api('GET', `/api/track/2?t=${links.viewer}`), 404, 'wrong ambulance');
  expectStatus(await s.api('GET', '/api/cases', { token: admin }), 200, 'cases');

  // A GPS app's device id: in OsmAnd's query (`id=`), a form body, and OwnTracks' Basic password.
  const device = (await s.api('POST', '/api/ambulances/2/device', { token: admin })).body.device_id as string;
  secrets.push({ what: 'device id', value: device });
  expectStatus(await s.api('GET', `/api/devices/osmand?id=${device}&lat=17.4&lon=78.5`), 200, 'osmand');
  expectStatus(await s.api('GET', `/api/devices/osmand?id=${device}&lat=north&lon=78.5`), 400, 'osmand refused');
  expectStatus(await s.api('POST', '/api/devices/osmand', { raw: `id=${device}&lat=17.41&lon=78.5`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 200, 'osmand form');
  const basic = { authorization: `Basic ${Buffer.from(`crew:${device}`).toString('base64')}` };
  expectStatus(await s.api('POST', '/api/devices/owntracks', { body: { _type: 'location', lat: 17.42, lon: 78.5, tst: Math.floor(Date.now() / 1000) }, headers: basic }), 200, 'owntracks');
  expectStatus(await s.api('POST', '/api/devices/owntracks', { body: { _type: 'location', lat: 17.42, lon: 78.5, tst: 1 }, headers: { authorization: `Basic ${Buffer.from(`crew:${device}x`).toString('base64')}` } }), 401, 'owntracks refused');
  expectStatus(await s.api('GET', '/api/outbox', { token: admin }), 200, 'outbox');
  expectStatus(await s.api('GET', '/api/cases', { token: `${operator}x` }), 401, 'bad bearer');
  expectStatus(await s.api('GET', '/api/cases', { headers: { authorization: `Basic ${operator}` } }), 401, 'basic');

  const staff = await s.socket({ token: operator });
  const viewer = await s.socket({ trackToken: links.viewer });
  const driver = await s.socket({ driverToken: links.driver });
  expect(await driver.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.42, longitude: 78.51 })).toMatchObject({ ok: true });
  expect(await viewer.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.42, longitude: 78.51 })).toMatchObject({ ok: false });
  await s.socket({ trackToken: `${links.viewer}x` }).then((x) => x.disconnect(), () => undefined);

  // A hospital's page link (made twice: the first is replaced), its page, socket, acknowledgement and handover, and bad links.
  const hospitalId = expectStatus(await s.api('POST', '/api/hospitals', { token: admin, body: { name: 'Log Test Hospital', latitude: 17.41, longitude: 78.45 } }), 201, 'hospital').body.hospital.id as number;
  const hospitalLink = async () => new URL(expectStatus(await s.api('POST', `/api/hospitals/${hospitalId}/link`, { token: admin }), 200, 'hospital link').body.link).searchParams.get('t')!;
  const replaced = await hospitalLink();
  const hospital = await hospitalLink();
  secrets.push({ what: 'replaced hospital link token', value: replaced }, { what: 'hospital link token', value: hospital });
  const assignmentId = (await s.ctx.db('assignments').where({ case_id: caseId, ambulance_id: 1 }).first()).id as number;
  expectStatus(await s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/destination?t=${links.driver}`, { body: { hospital_id: hospitalId, reason: 'closest' } }), 200, 'crew destination');
  const prealert = expectStatus(await s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/prealert?t=${links.driver}`, { body: { age: 70, activation: 'stroke' } }), 201, 'crew prealert').body.prealert;
  const hospitalSocket = await s.socket({ hospitalId, hospitalToken: hospital });
  await s.socket({ hospitalId, hospitalToken: replaced }).then((x) => x.disconnect(), () => undefined);
  expectStatus(await s.api('GET', `/api/hospital/${hospitalId}?t=${hospital}`), 200, 'hospital page');
  expectStatus(await s.api('GET', `/api/hospital/${hospitalId}?t=${replaced}`), 404, 'replaced hospital link');
  expectStatus(await s.api('GET', `/api/cases?t=${hospital}`), 401, 'hospital link on a staff route');
  expectStatus(await s.api('GET', '/api/cases', { token: hospital }), 401, 'hospital link as a bearer');
  expectStatus(await s.api('POST', `/api/hospital/${hospitalId}/prealerts/${prealert.id}/ack?t=${hospital}`), 200, 'acknowledged');
  expectStatus(await s.api('PUT', `/api/hospital/${hospitalId}/status?t=${hospital}`, { body: { status: 'diversion' } }), 400, 'diversion without a reason');
  expectStatus(await s.api('POST', `/api/ambulances/1/unit-status?t=${links.driver}`, { body: { status: 'at_hospital' } }), 200, 'arrived');
  expectStatus(await s.api('POST', `/api/hospital/${hospitalId}/handover/${assignmentId}?t=${hospital}`), 200, 'handover by the hospital');
  hospitalSocket.disconnect();

  // Closing the case kills the links; using them after is logged as a refusal only.
  expectStatus(await updateCase(s, operator, caseId, { status: 'closed' }), 200, 'close');
  expectStatus(await s.api('GET', `/api/track/1?t=${links.viewer}`), 404, 'dead link');
  expectStatus(await s.api('POST', `/api/ambulances/1/position?t=${links.driver}`, { body: { latitude: 17.4, longitude: 78.5 } }), 403, 'dead driver link');

  expectStatus(await s.api('POST', '/api/auth/signout', { token: operator }), 200, 'sign out');
  for (const sock of [staff, viewer, driver]) sock.disconnect();
  return { caseId };
}

function expectNoSecret(lines: string[], secrets: Secrets) {
  expect(secrets.length).toBeGreaterThanOrEqual(8);
  for (const { what, value } of secrets) {
    // Codes are short: only a standalone run of these 6 digits counts (not part of a time or an id).
    const pattern = /^\d{6}$/.test(value) ? new RegExp(`(?<![0-9])${value}(?![0-9])`) : null;
    const hits = lines.filter((l) => (pattern ? pattern.test(l) : l.includes(value)));
    expect({ what, hits }).toEqual({ what, hits: [] });
  }
}

describe('tokens never appear in logs', () => {
  it('without SMTP_URL: the outbox logs each message once with its id, kind, recipient and links, tokens redacted', async () => {
    const mem = memoryLog('debug');
    const s = await startTestServer({ log: mem.log, env: { ...LIMITS, SIGNIN_CODE: 'email' } });
    servers.push(s);
    const secrets: Secrets = [];
    const { caseId } = await exercise(s, secrets);
    // Every queued message is logged once by the worker.
    const outbox = await s.ctx.db('outbox').orderBy('id');
    const queued = () => mem.entries().filter((e) => typeof e.outboxId === 'number' && String(e.msg).startsWith('mail queued'));
    await waitFor(() => queued().length >= outbox.length, 'the outbox log lines');

    expect(queued().map((e) => e.outboxId).sort()).toEqual(outbox.map((m) => m.id).sort());
    for (const e of queued()) {
      const m = outbox.find((o) => o.id === e.outboxId)!;
      expect(e).toMatchObject({ kind: m.kind, to: m.to_address });
      expect(e.msg).toMatch(/GET \/api\/outbox|Outbox/);
      expect(e.links).toEqual((JSON.parse(m.links) as string[]).map((l) => l.replace(/([?&]t=)[^&#]*/, '$1…')));
    }
    const driverMail = queued().find((e) => e.kind === 'tracking-driver')!;
    expect(driverMail.links).toEqual(['http://lifeline.test/driver/1?t=…', 'http://lifeline.test/track/1?t=…']);
    // The patient's location link carries its own token, redacted like the others (with the tracking link of the dispatch).
    expect(queued().find((e) => e.kind === 'share-location')!.links).toEqual([`http://lifeline.test/location/${caseId}?t=…`, 'http://lifeline.test/track/1?t=…']);
    expect(queued().find((e) => e.kind === 'signin-code')!.links).toEqual([]);

    // Requests were logged at debug (the test would prove nothing otherwise), without query strings.
    const requests = mem.entries().filter((e) => e.msg === 'request');
    expect(requests.length).toBeGreaterThan(20);
    expect(requests.some((e) => e.path === '/api/track/1')).toBe(true);
    expectNoSecret(mem.lines, secrets);
  });

  it('with SMTP_URL: sending, refusals by the mail server and retries log no token', async () => {
    const smtp = await startSmtpListener({ rejectRcpt: true });
    const mem = memoryLog('debug');
    const s = await startTestServer({ log: mem.log, env: { ...LIMITS, SIGNIN_CODE: 'email', SMTP_URL: smtp.url } });
    servers.push(s);
    try {
      const secrets: Secrets = [];
      // The first sign-in's code mail is refused (logged as a retry), then the server accepts.
      const pending = signInWithCodeAfterRefusal(s, smtp, secrets);
      await pending;
      await exercise(s, secrets, smtp);
      await waitFor(async () => (await s.ctx.db('outbox').whereNot({ status: 'sent' })).length === 0, 'every mail sent', 20_000);
      expect(mem.entries().some((e) => e.msg === 'mail sent')).toBe(true);
      expect(mem.entries().some((e) => String(e.msg).includes('will retry'))).toBe(true);
      // What the SMTP listener received holds the tokens (they are meant for the recipients)...
      expect(smtp.received.some((m) => secrets.some((x) => x.what === 'driver token' && m.text.includes(x.value)))).toBe(true);
      // ...the log does not.
      expectNoSecret(mem.lines, secrets);
    } finally {
      await smtp.close();
    }
  }, 40_000);
});

/** Signs the admin in while the SMTP server refuses recipients for a moment, so the retry path is logged. */
async function signInWithCodeAfterRefusal(s: TestServer, smtp: Awaited<ReturnType<typeof startSmtpListener>>, secrets: Secrets) {
  const first = await s.api('POST', '/api/auth/signin', { body: DEMO.admin });
  expect(first.status).toBe(202);
  secrets.push({ what: 'refused sign-in challenge', value: first.body.challenge });
  await waitFor(() => smtp.state.rcptRejected > 0, 'the SMTP refusal');
  await sleep(50);
  // Read while the refused mail waits for its retry (a sent row keeps no code).
  const mail = await s.ctx.db('outbox').where({ kind: 'signin-code' }).orderBy('id', 'desc').first();
  secrets.push({ what: 'refused sign-in code', value: /\b(\d{6})\b/.exec(mail.body_text)![1] });
  smtp.state.rejectRcpt = false;
}
