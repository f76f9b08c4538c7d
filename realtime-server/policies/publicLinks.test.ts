import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoWrite } from '../testing/assertions';
import { PUBLIC_URL, dispatchCase, expectStatus, locationSharePath, locationToken, trackingTokens, updateCase } from '../testing/dispatchHelpers';
import { type ApiResult, startTestServer, useTestServer } from '../testing/testServer';

/**
 * The public links: a wrong, random, other-case, other-letter-case, expired or
 * closed-case token or case id always gets the same answer, so a link cannot be probed;
 * every answer is `no-store` and sends no referrer.
 *
 * - `GET /api/track/{ambulanceId}?t=`: one 404 body for every bad link.
 * - `POST /api/location/{caseId}?t=`: one 404 body for every id that names no case and every
 *   token that is not the case's own location token (a tracking link's holder knows the case
 *   id); the true link of a call that ended (closed, resolved) gets 410 (its holder is the
 *   patient, who learns only that the emergency is over); a waiting (pending) call's shares.
 * - `POST /api/ambulances/{id}/position?t=`: one 403 body for every token that is not a live driver link.
 * - The socket handshake: one `unauthorized` for every bad link token.
 */
const LINK_NOT_FOUND = { error: 'Tracking link not found or expired' };
const CASE_NOT_FOUND = { error: 'Case not found' };
const CASE_OVER = { error: 'This case is no longer active' };
const NOT_A_DRIVER_LINK = { error: 'This link is not valid for sending positions' };

const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '100000', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' } });
let operator: string;
let admin: string;
/** Live links of case A (ambulance 1) and case B (ambulance 2). */
let A: { id: string; viewer: string; driver: string };
let B: { id: string; viewer: string; driver: string };
/** Dead tracking links: closed, resolved, reassigned (revoked), deleted, pending (its location link lives on). */
const dead: Record<'closed' | 'resolved' | 'reassigned' | 'deleted' | 'pending', { id: string; ambulance: number; viewer: string; driver: string }> = {} as any;

const swapCase = (t: string) => [...t].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
const randomToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

async function linkCase(ambulance: number) {
  const id = await dispatchCase(s, operator, ambulance);
  return { id, ambulance, ...(await trackingTokens(s, operator, id, ambulance)) };
}

beforeAll(async () => {
  operator = await s.signIn('operator');
  admin = await s.signIn('admin');
  A = await linkCase(1);
  B = await linkCase(2);
  dead.closed = await linkCase(3);
  expectStatus(await updateCase(s, operator, dead.closed.id, { status: 'closed' }), 200, 'close');
  dead.resolved = await linkCase(4);
  expectStatus(await updateCase(s, operator, dead.resolved.id, { status: 'resolved' }), 200, 'resolve');
  dead.reassigned = await linkCase(5);
  expectStatus(await updateCase(s, operator, dead.reassigned.id, { ambulance_id: 7 }), 200, 'reassign');
  dead.deleted = await linkCase(8);
  expectStatus(await s.api('DELETE', `/api/cases/${dead.deleted.id}`, { token: admin }), 200, 'delete');
  dead.pending = await linkCase(6);
  expectStatus(await updateCase(s, operator, dead.pending.id, { status: 'pending' }), 200, 'pending');
});

/** Same status, byte-identical body and the privacy headers. */
function expectSameAnswer(answers: [string, ApiResult][], status: number, body: unknown) {
  const bodies = new Set<string>();
  for (const [what, res] of answers) {
    expect({ what, status: res.status, body: res.body }).toEqual({ what, status, body });
    expect({ what, cache: res.headers.get('cache-control'), referrer: res.headers.get('referrer-policy') })
      .toEqual({ what, cache: 'no-store', referrer: 'no-referrer' });
    bodies.add(`${res.headers.get('content-type')} ${res.headers.get('content-length')} ${JSON.stringify(res.body)}`);
  }
  expect(bodies.size).toBe(1);
}

describe('GET /api/track/{ambulanceId}?t=: every bad link gets the same 404', () => {
  const track = (id: number | string, t?: string) => s.api('GET', `/api/track/${id}${t === undefined ? '' : `?t=${encodeURIComponent(t)}`}`);

  it('a live link answers 200, no-store, no referrer', async () => {
    const res = await track(1, A.viewer);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('wrong, random, other-case, other-letter-case, expired and closed-case tokens, and bad ids', async () => {
    const answers: [string, ApiResult][] = [];
    const probe = async (what: string, id: number | string, t?: string) => {
      answers.push([what, await expectNoWrite(s.ctx.db, () => track(id, t))]);
    };
    await probe('no token', 1);
    await probe('empty token', 1, '');
    await probe('wrong token', 1, 'x'.repeat(43));
    await probe('random token', 1, randomToken());
    await probe('a truncated live token', 1, A.viewer.slice(0, -1));
    await probe('a live token with one more character', 1, `${A.viewer}A`);
    await probe('the live token in the other letter case', 1, swapCase(A.viewer));
    await probe('another case\'s viewer token', 1, B.viewer);
    await probe('another case\'s driver token', 1, B.driver);
    await probe('a live token for another ambulance', 2, A.viewer);
    await probe('a live token for an unknown ambulance', 99, A.viewer);
    await probe('a live token with a non-numeric ambulance id', 'abc', A.viewer);
    await probe('a live token with a huge ambulance id', '99999999999999999999', A.viewer);
    for (const [kind, link] of Object.entries(dead)) {
      await probe(`${kind} case's viewer token`, link.ambulance, link.viewer);
      await probe(`${kind} case's driver token`, link.ambulance, link.driver);
    }
    await probe('the reassigned case\'s token on its new ambulance', 7, dead.reassigned.viewer);
    expectSameAnswer(answers, 404, LINK_NOT_FOUND);
  });

  it('a token given as t[]= or twice is not a token', async () => {
    const answers: [string, ApiResult][] = [
      ['t twice', await s.api('GET', `/api/track/1?t=${A.viewer}&t=${A.viewer}`)],
      ['t[]', await s.api('GET', `/api/track/1?t[]=${A.viewer}`)],
      ['T', await s.api('GET', `/api/track/1?T=${A.viewer}`)],
    ];
    expectSameAnswer(answers, 404, LINK_NOT_FOUND);
  });
});

describe('POST /api/location/{caseId}?t=: only the patient\'s own link writes; one 404 for every other, 410 once the case is over', () => {
  const share = (id: string, t?: string, body: unknown = { latitude: 17.4, longitude: 78.5 }) =>
    s.api('POST', `/api/location/${encodeURIComponent(id)}${t === undefined ? '' : `?t=${encodeURIComponent(t)}`}`, { body });

  it('the live link answers 200, no-store, no referrer; the patient\'s e-mail carries that link', async () => {
    const t = await locationToken(s, A.id);
    expect(t).toMatch(/^[\w-]{43}$/); // 256 bits, base64url
    const res = await share(A.id, t);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const mail = await s.ctx.db('outbox').where({ case_id: A.id, kind: 'share-location' }).first();
    // The location link, then the tracking link of the ambulance dispatched with the case.
    expect(JSON.parse(mail.links)).toEqual([`${PUBLIC_URL}/location/${A.id}?t=${t}`, expect.stringMatching(new RegExp(`^${PUBLIC_URL}/track/1\\?t=[\\w-]{43}$`))]);
    expect(mail.body_text).toContain(`${PUBLIC_URL}/location/${A.id}?t=${t}`);
    // Stored only as its hash.
    const row = await s.ctx.db('cases').where({ id: A.id }).first();
    expect(row.location_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(t);
  });

  it('a tracking link\'s holder cannot write: the case id it is given, with or without its viewer or driver token, is the same 404, nothing written', async () => {
    const viewerAnswer = await s.api('GET', `/api/track/1?t=${A.viewer}`);
    expect(viewerAnswer.body.case.id).toBe(A.id); // what a viewer learns…
    const answers: [string, ApiResult][] = [];
    for (const [what, t] of [
      ['no token', undefined], ['empty token', ''], ['the viewer token', A.viewer], ['the driver token', A.driver],
      ['another case\'s location token', await locationToken(s, B.id)], ['random token', randomToken()],
      ['the live token in the other letter case', swapCase(await locationToken(s, A.id))],
      ['the live token truncated', (await locationToken(s, A.id)).slice(0, -1)],
    ] as const) {
      answers.push([what, await expectNoWrite(s.ctx.db, () => share(A.id, t))]); // …writes nothing
    }
    expectSameAnswer(answers, 404, CASE_NOT_FOUND);
  });

  it('limits count per link × client and per client: a hammering link holder uses up only its own budget', async () => {
    const hammer = await startTestServer({ env: { TRUSTED_PROXY: '127.0.0.1,::1', LINK_LIMIT_PER_MIN: '3', LINK_LIMIT_PER_CLIENT: '6', SIGNIN_LIMIT_IP: '1000', SIGNIN_LIMIT_ACCOUNT: '1000' } });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const op = await hammer.signIn('operator');
      const id = await dispatchCase(hammer, op, 1);
      const { viewer } = await trackingTokens(hammer, op, id, 1);
      const patientPath = await locationSharePath(hammer, id);
      // A forwarded viewer link's holder posts at the patient's case: refused (404), then limited (429), never written.
      for (let i = 0; i < 10; i++) {
        const res = await expectNoWrite(hammer.ctx.db, () => hammer.api('POST', `/api/location/${id}?t=${viewer}`, { body: { latitude: 17.4, longitude: 78.5 }, headers: from('203.0.113.7') }));
        expect(res.status === 404 || res.status === 429).toBe(true);
      }
      // …and watches the link until it is refused: another viewer of the same link still watches.
      let watched = 0;
      while ((await hammer.api('GET', `/api/track/1?t=${viewer}`, { headers: from('203.0.113.7') })).status === 200) watched++;
      expect(watched).toBeLessThanOrEqual(3);
      expect((await hammer.api('GET', `/api/track/1?t=${viewer}`, { headers: from('198.51.100.20') })).status).toBe(200);
      // The patient, from their own phone, shares.
      expect((await hammer.api('POST', patientPath, { body: { latitude: 17.41, longitude: 78.51 }, headers: from('198.51.100.9') })).status).toBe(200);
      // One client spreading calls over many made-up links is stopped by its own count of links never issued (LINK_LIMIT_PER_MIN; wrongLinks.test.ts).
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await hammer.api('GET', `/api/track/${1 + (i % 8)}?t=${randomToken()}`, { headers: from('192.0.2.44') })).status);
      expect(statuses.slice(0, 3)).toEqual(Array(3).fill(404));
      expect(statuses.slice(3)).toEqual(Array(5).fill(429));
      // One client spreading calls over many real links is stopped by its own count (LINK_LIMIT_PER_CLIENT).
      const viewers = [];
      for (const amb of [2, 3, 4]) viewers.push({ amb, t: (await trackingTokens(hammer, op, await dispatchCase(hammer, op, amb), amb)).viewer });
      const real: number[] = [];
      for (let i = 0; i < 8; i++) real.push((await hammer.api('GET', `/api/track/${viewers[i % 3].amb}?t=${viewers[i % 3].t}`, { headers: from('192.0.2.45') })).status);
      expect(real).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await hammer.dispose();
    }
  });

  it('wrong, random, other-letter-case, truncated and deleted case ids: the same 404, nothing written', async () => {
    const answers: [string, ApiResult][] = [];
    const t = await locationToken(s, A.id);
    for (const [what, id] of [
      ['random UUIDv4', crypto.randomUUID()],
      ['nil UUID', '00000000-0000-0000-0000-000000000000'],
      ['the live id in upper case', A.id.toUpperCase()],
      ['the live id truncated', A.id.slice(0, -1)],
      ['the live id with a trailing character', `${A.id}0`],
      ['the live id with braces', `{${A.id}}`],
      ['not a UUID', 'not-a-uuid'],
      ['a number', '12'],
      ['a viewer token', A.viewer],
      ['another live case', B.id],
      ['a deleted case', dead.deleted.id],
      ['a deleted case in upper case', dead.deleted.id.toUpperCase()],
      ['a closed case in upper case', dead.closed.id.toUpperCase()],
    ] as const) {
      answers.push([what, await expectNoWrite(s.ctx.db, () => share(id, t))]);
    }
    answers.push(['a deleted case with its own token', await expectNoWrite(s.ctx.db, async () => share(dead.deleted.id, await locationToken(s, dead.deleted.id)))]);
    expectSameAnswer(answers, 404, CASE_NOT_FOUND);
  });

  it('closed and resolved cases with their own link: the same 410, nothing written; a waiting (pending) one shares; with any other token the same 404', async () => {
    const answers: [string, ApiResult][] = [];
    for (const kind of ['closed', 'resolved'] as const) {
      const t = await locationToken(s, dead[kind].id);
      answers.push([kind, await expectNoWrite(s.ctx.db, () => share(dead[kind].id, t))]);
    }
    expectSameAnswer(answers, 410, CASE_OVER);
    expect((await share(dead.pending.id, await locationToken(s, dead.pending.id))).status).toBe(200);
    const wrong: [string, ApiResult][] = [];
    for (const kind of ['closed', 'resolved', 'pending'] as const) {
      wrong.push([kind, await expectNoWrite(s.ctx.db, () => share(dead[kind].id, dead[kind].viewer))]);
    }
    expectSameAnswer(wrong, 404, CASE_NOT_FOUND);
  });

  it('a bad body gets the same 400 whatever the id: the answer never says whether the case exists', async () => {
    const bad = { latitude: 'x', longitude: 78.5 };
    const answers: [string, ApiResult][] = [];
    for (const [what, id] of [['live', A.id], ['unknown', crypto.randomUUID()], ['closed', dead.closed.id], ['deleted', dead.deleted.id], ['not a UUID', 'abc']]) {
      answers.push([what, await expectNoWrite(s.ctx.db, async () => share(id, await locationToken(s, A.id), bad))]);
    }
    expectSameAnswer(answers, 400, { error: 'latitude: Invalid input: expected number, received string' });
  });
});

describe('POST /api/ambulances/{id}/position?t=: one 403 for every token that is not a live driver link', () => {
  const send = (id: number, t: string) => s.api('POST', `/api/ambulances/${id}/position?t=${encodeURIComponent(t)}`, { body: { latitude: 17.4, longitude: 78.5 } });

  it('wrong, random, other-letter-case, expired, closed, deleted and pending-case tokens', async () => {
    const answers: [string, ApiResult][] = [];
    const probe = async (what: string, id: number, t: string) => { answers.push([what, await expectNoWrite(s.ctx.db, () => send(id, t))]); };
    await probe('wrong token', 1, 'y'.repeat(43));
    await probe('random token', 1, randomToken());
    await probe('the live driver token in the other letter case', 1, swapCase(A.driver));
    await probe('a truncated live driver token', 1, A.driver.slice(0, -1));
    await probe('a session token', 1, operator);
    await probe('the live viewer token of this ambulance', 1, A.viewer);
    await probe('another ambulance\'s live driver token', 1, B.driver);
    await probe('the live driver token on another ambulance', 2, A.driver);
    for (const [kind, link] of Object.entries(dead)) await probe(`${kind} case's driver token`, link.ambulance, link.driver);
    expectSameAnswer(answers, 403, NOT_A_DRIVER_LINK);
  });
});

describe('the socket handshake: one refusal for every bad link token', () => {
  it('wrong, random, other-letter-case, expired, closed, deleted, pending, and tokens in the wrong slot', async () => {
    const attempts: Record<string, unknown>[] = [
      { trackToken: 'x'.repeat(43) }, { driverToken: randomToken() },
      { trackToken: swapCase(A.viewer) }, { driverToken: swapCase(A.driver) },
      { driverToken: A.viewer }, { token: A.viewer }, { token: A.driver },
      ...Object.values(dead).map((l) => ({ trackToken: l.viewer })),
      // A deleted call's driver link is gone with it; the others wait for their next call (below).
      { driverToken: dead.deleted.driver },
    ];
    for (const auth of attempts) {
      const err = await expectNoWrite(s.ctx.db, () => s.socket(auth).then(() => undefined, (e: Error) => e));
      expect({ auth: Object.keys(auth), message: err?.message }).toEqual({ auth: Object.keys(auth), message: 'unauthorized' });
    }
  });

  it('an ended call\'s driver link opens only a waiting socket: its ambulance\'s standby room, nothing of the call', async () => {
    for (const kind of ['closed', 'resolved', 'reassigned', 'pending'] as const) {
      const link = dead[kind];
      const sock = await expectNoWrite(s.ctx.db, () => s.socket({ driverToken: link.driver }));
      const sockets = await s.io.fetchSockets();
      const rooms = [...sockets.find((x) => x.id === sock.id)!.rooms].filter((r) => r !== sock.id);
      expect({ kind, rooms }).toEqual({ kind, rooms: [`standby:${link.ambulance}`] });
      sock.disconnect();
    }
  });
});

describe('the public pages themselves', () => {
  it('/track/{id}?t= and /location/{caseId} are served with no referrer, so the token never leaves in a Referer (tiles, links)', async () => {
    fs.mkdirSync(s.config.staticDir, { recursive: true });
    fs.writeFileSync(path.join(s.config.staticDir, 'index.html'), '<!doctype html><title>Lifeline</title>');
    for (const url of [`/track/1?t=${A.viewer}`, `/driver/1?t=${A.driver}`, `/location/${A.id}`]) {
      const res = await s.api('GET', url);
      expect({ url, status: res.status, referrer: res.headers.get('referrer-policy') }).toEqual({ url, status: 200, referrer: 'no-referrer' });
    }
  });
});
