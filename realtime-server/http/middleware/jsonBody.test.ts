import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { casePayload, dispatchCase, locationSharePath } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';

/**
 * JSON bodies are read as bytes and must be UTF-8: a byte sequence that is not (overlongs,
 * UTF-16 surrogates encoded as UTF-8, truncated sequences, stray bytes, code points past
 * U+10FFFF) is refused with 400 before anything is parsed or written, rather than silently
 * turned into U+FFFD and stored. A body that declares another charset is refused with 415.
 * The other limits stay: 1 MB, JSON only, strict JSON, nesting depth.
 */

const s = useTestServer();
let operator: string;
beforeAll(async () => {
  operator = await s.signIn('operator');
});

/** A request with a body of exact bytes. */
async function send(method: string, urlPath: string, body: Buffer | Uint8Array, headers: Record<string, string> = {}) {
  const res = await fetch(s.url + urlPath, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: parsed as any, headers: res.headers };
}

const staff = { authorization: '' };
beforeAll(() => { staff.authorization = `Bearer ${operator}`; });

/** `{...casePayload(ambulance), patientName: "Ra<bytes>vi"}` as bytes. */
function dispatchBytes(ambulance: number, bytes: Buffer) {
  const json = JSON.stringify({ ...casePayload(ambulance), patientName: 'RaXXXXvi' });
  const [head, tail] = json.split('XXXX');
  return Buffer.concat([Buffer.from(head, 'utf8'), bytes, Buffer.from(tail, 'utf8')]);
}

const INVALID: [string, string][] = [
  ['an overlong "/" (C0 AF)', 'c0af'],
  ['an overlong "/" in three bytes (E0 80 AF)', 'e080af'],
  ['an overlong NUL (C0 80)', 'c080'],
  ['a high surrogate encoded as UTF-8 (ED A0 80)', 'eda080'],
  ['a low surrogate encoded as UTF-8 (ED BF BF)', 'edbfbf'],
  ['a surrogate pair encoded as two UTF-8 sequences (ED A0 BD ED B8 80)', 'eda0bdedb880'],
  ['a code point past U+10FFFF (F4 90 80 80)', 'f4908080'],
  ['a truncated sequence (E2 82)', 'e282'],
  ['a lone continuation byte (80)', '80'],
  ['a Latin-1 "é" (E9)', 'e9'],
  ['FF', 'ff'],
  ['FE FF', 'feff'],
];

describe('invalid UTF-8 is refused with 400 and writes nothing', () => {
  it.each(INVALID)('%s inside a string value of a dispatch', async (_what, hex) => {
    const res = await expectNoWrite(s.ctx.db, () => send('POST', '/live-location', dispatchBytes(1, Buffer.from(hex, 'hex')), staff));
    expectError(res, 400, 'Request body is not valid UTF-8');
  });

  it('inside a key, and at the very end of the body', async () => {
    const inKey = Buffer.concat([Buffer.from('{"to":"p@example.com","'), Buffer.from('eda080', 'hex'), Buffer.from('":1}')]);
    expectError(await expectNoWrite(s.ctx.db, () => send('POST', '/live-location', inKey, staff)), 400, 'Request body is not valid UTF-8');
    const atEnd = Buffer.concat([dispatchBytes(1, Buffer.from('é')), Buffer.from('c3', 'hex')]);
    expectError(await expectNoWrite(s.ctx.db, () => send('POST', '/live-location', atEnd, staff)), 400, 'Request body is not valid UTF-8');
  });

  it('on every route that takes a body: sign-in, cases, the public location link', async () => {
    const bad = Buffer.from('7b22656d61696c223a2261c0af40622e63227d', 'hex'); // {"email":"a<C0 AF>@b.c"}
    expectError(await send('POST', '/api/auth/signin', bad), 400, 'Request body is not valid UTF-8');
    expectError(await expectNoWrite(s.ctx.db, () => send('POST', '/api/cases', bad, staff)), 400, 'Request body is not valid UTF-8');
    const caseId = await dispatchCase(s, operator, 2);
    const share = Buffer.concat([Buffer.from('{"latitude":17.4,"longitude":78.5,"note":"'), Buffer.from('eda080', 'hex'), Buffer.from('"}')]);
    expectError(await expectNoWrite(s.ctx.db, async () => send('POST', await locationSharePath(s, caseId), share)), 400, 'Request body is not valid UTF-8');
  });

  it('gzip-encoded bodies are checked after inflating', async () => {
    const res = await expectNoWrite(s.ctx.db, () => send('POST', '/live-location', gzipSync(dispatchBytes(1, Buffer.from('eda080', 'hex'))), { ...staff, 'content-encoding': 'gzip' }));
    expectError(res, 400, 'Request body is not valid UTF-8');
  });
});

describe('valid UTF-8 of every script is taken as sent', () => {
  const NAMES = [
    'Ravi Kumar',
    'రవి కుమార్', // Telugu
    'रवि कुमार', // Devanagari
    'رافي كومار', // Arabic, right to left
    'Ωμέγα Δέλτα', // Greek
    'Иван Петров', // Cyrillic
    '李小龍', // CJK
    '김민준', // Hangul
    'Zoë Ångström-Øvergård',
    '😀 Smile 👩🏽‍⚕️', // astral plane, skin tone, ZWJ sequence
    'e\u0301 (combining accent)',
  ];

  it.each(NAMES)('%s', async (name) => {
    const body = Buffer.from(JSON.stringify({ ...casePayload(undefined), patientName: name }), 'utf8');
    const res = await send('POST', '/api/cases', body, staff);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.case.patientName).toBe(name);
    const stored = await s.ctx.db('cases').where({ id: res.body.case.id }).first();
    expect(stored.patient_name).toBe(name);
  });

  it('with charset=utf-8 in any spelling, with a byte order mark, and gzip-encoded', async () => {
    const body = () => Buffer.from(JSON.stringify({ ...casePayload(undefined), patientName: 'Zoë 😀' }), 'utf8');
    for (const type of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=utf8']) {
      const res = await send('POST', '/api/cases', body(), { ...staff, 'content-type': type });
      expect({ type, status: res.status }).toEqual({ type, status: 201 });
    }
    const bom = await send('POST', '/api/cases', Buffer.concat([Buffer.from('efbbbf', 'hex'), body()]), staff);
    expect(bom.status).toBe(201);
    expect(bom.body.case.patientName).toBe('Zoë 😀');
    const gz = await send('POST', '/api/cases', gzipSync(body()), { ...staff, 'content-encoding': 'gzip' });
    expect(gz.status).toBe(201);
    expect(gz.body.case.patientName).toBe('Zoë 😀');
  });
});

describe('a body in another charset is refused with 415', () => {
  it.each(['iso-8859-1', 'latin1', 'windows-1252', 'utf-16', 'utf-16le', 'us-ascii', 'x-unknown'])('charset=%s', async (charset) => {
    const latin1 = Buffer.from(JSON.stringify({ ...casePayload(undefined), patientName: 'René' }), 'latin1');
    const res = await expectNoWrite(s.ctx.db, () => send('POST', '/api/cases', latin1, { ...staff, 'content-type': `application/json; charset=${charset}` }));
    expectError(res, 415, 'Request body must be JSON in UTF-8 (charset=utf-8)');
  });
});

describe('the other body limits are unchanged', () => {
  it('not JSON, a JSON scalar, a __proto__ key: 400 "Request body is not valid JSON"', async () => {
    for (const raw of ['{nope', '"just a string"', '42', '{"a":1}x', '{"__proto__":{"admin":true}}']) {
      const res = await expectNoWrite(s.ctx.db, () => send('POST', '/api/cases', Buffer.from(raw), staff));
      expect({ raw, ...res, headers: undefined }).toEqual({ raw, status: 400, body: { error: 'Request body is not valid JSON' }, headers: undefined });
    }
  });

  it('over 1 MB: 413, also once inflated', async () => {
    const big = Buffer.from(JSON.stringify({ ...casePayload(undefined), description: 'x'.repeat(1024 * 1024) }));
    expectError(await send('POST', '/api/cases', big, staff), 413, 'Request body is too large');
    expectError(await send('POST', '/api/cases', gzipSync(big), { ...staff, 'content-encoding': 'gzip' }), 413, 'Request body is too large');
  });

  it('nested deeper than 32 levels: 400', async () => {
    const deep = Buffer.from(`${'['.repeat(40)}${']'.repeat(40)}`);
    expectError(await send('POST', '/api/cases', deep, staff), 400, /nested too deeply/);
  });

  it('a body that is not JSON by its type is not read (fields are then missing: 400 from validation)', async () => {
    const res = await expectNoWrite(s.ctx.db, () => send('POST', '/api/cases', Buffer.from(JSON.stringify(casePayload(undefined))), { ...staff, 'content-type': 'text/plain' }));
    expect(res.status).toBe(400);
    expect(res.body.error).not.toMatch(/UTF-8|JSON/);
  });

  it('an empty JSON body is an empty object (400 from validation, not a parse error)', async () => {
    const res = await send('POST', '/api/cases', Buffer.alloc(0), staff);
    expect(res.status).toBe(400);
    expect(res.body.error).not.toMatch(/UTF-8|not valid JSON/);
  });
});
