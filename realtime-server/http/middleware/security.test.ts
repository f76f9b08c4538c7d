import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { dispatchCase, trackingTokens, locationSharePath, shareLocation } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';
import { socketOriginAllowed, tileSource } from '../../edge/securityHeaders';

/**
 * Security headers on every answer the port gives (API, SPA files, errors, 404s, Socket.IO's
 * own answers), no-store on link answers, and a 10 MB body refused with 413, not a crash.
 */

const TILE_URL = 'https://tiles.example.org/osm/{z}/{x}/{y}.png';
const s = useTestServer({ env: { TILE_URL } });
let operator: string;

beforeAll(async () => {
  operator = await s.signIn('operator');
  // A built web app in STATIC_DIR: an index and one hashed asset.
  fs.mkdirSync(path.join(s.config.staticDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(s.config.staticDir, 'index.html'), '<!doctype html><title>Lifeline</title><div id="root"></div>');
  fs.writeFileSync(path.join(s.config.staticDir, 'assets', 'app-1234.js'), 'console.log(1)');
});

/** The CSP as directive → sources. */
function csp(headers: Headers): Record<string, string[]> {
  const value = headers.get('content-security-policy');
  expect(value, 'Content-Security-Policy').toBeTruthy();
  return Object.fromEntries(value!.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
}

function expectSecurityHeaders(headers: Headers) {
  const policy = csp(headers);
  expect(policy['default-src']).toEqual(["'self'"]);
  expect(policy['script-src']).toEqual(["'self'"]); // no inline script, no eval
  expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]); // MUI's emotion injects style elements
  expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tiles.example.org']);
  expect(policy['connect-src'][0]).toBe("'self'");
  const host = new URL(s.url).host;
  expect(policy['connect-src']).toEqual(expect.arrayContaining([`ws://${host}`, `wss://${host}`]));
  expect(policy['connect-src'].every((src) => src === "'self'" || /^wss?:\/\//.test(src))).toBe(true);
  expect(policy['frame-ancestors']).toEqual(["'none'"]);
  expect(policy['object-src']).toEqual(["'none'"]);
  expect(policy['base-uri']).toEqual(["'self'"]);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

const get = (urlPath: string, init: RequestInit = {}) => fetch(s.url + urlPath, init);

describe('security headers', () => {
  it.each([
    ['an API answer', '/api/health', 200],
    ['an authenticated API refusal (401)', '/api/cases', 401],
    ['an unknown API path (404)', '/api/nothing-here', 404],
    ['the SPA index for a client route', '/dashboard/cases', 200],
    ['the SPA index at /', '/', 200],
    ['a built asset', '/assets/app-1234.js', 200],
    ['a missing asset', '/assets/missing.js', 200], // falls back to index.html like every client route
  ])('are on %s', async (_what, urlPath, status) => {
    const res = await get(urlPath);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
  });

  it('are on errors: 400 (bad JSON), a method the path does not serve, 413', async () => {
    const bad = await get('/api/auth/signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(bad.status).toBe(400);
    expectSecurityHeaders(bad.headers);
    const method = await get('/api/health', { method: 'DELETE' });
    expect([404, 405]).toContain(method.status);
    expectSecurityHeaders(method.headers);
    const big = await get('/api/auth/signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
    expectSecurityHeaders(big.headers);
  });

  it("are on Socket.IO's own answers (a polling handshake, a refused origin)", async () => {
    const refused = await get('/socket.io/?EIO=4&transport=polling', { headers: { origin: 'http://evil.example' } });
    expect(refused.status).toBe(403);
    expectSecurityHeaders(refused.headers);
    const bad = await get('/socket.io/?EIO=1&transport=polling');
    expect(bad.status).toBe(400);
    expectSecurityHeaders(bad.headers);
  });

  it('the SPA index is served with the CSP as it would be to a browser (HEAD too)', async () => {
    const res = await get('/signin', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expectSecurityHeaders(res.headers);
  });
});

describe('tile host in img-src', () => {
  it.each([
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org'],
    ['https://{s}.tile.openstreetmap.fr/hot/{z}/{x}/{y}.png', 'https://*.tile.openstreetmap.fr'],
    ['http://127.0.0.1:9/{z}/{x}/{y}.png', 'http://127.0.0.1:9'],
    ['https://maps.example.com:8443/tiles/{z}/{x}/{y}{r}.png?key=abc', 'https://maps.example.com:8443'],
    ['/tiles/{z}/{x}/{y}.png', undefined], // same origin: 'self' covers it
    ['javascript:alert(1)//{z}', undefined],
  ])('%s → %s', (template, expected) => {
    expect(tileSource(template)).toBe(expected);
  });
});

describe('public link answers are never cached', () => {
  it('GET /api/track/{id}?t=, POST /api/location/{caseId}, POST /api/ambulances/{id}/position?t= carry Cache-Control: no-store, refusals too', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    const { viewer, driver } = await trackingTokens(s, operator, caseId, 2);
    const answers = [
      await s.api('GET', `/api/track/2?t=${viewer}`),
      await s.api('GET', '/api/track/2?t=wrong-token'),
      await shareLocation(s, caseId, { latitude: 17.4, longitude: 78.5 }),
      await s.api('POST', '/api/location/00000000-0000-4000-8000-000000000000', { body: { latitude: 17.4, longitude: 78.5 } }),
      await s.api('POST', `/api/ambulances/2/position?t=${driver}`, { body: { latitude: 17.41, longitude: 78.49 } }),
      await s.api('POST', '/api/ambulances/2/position?t=wrong', { body: { latitude: 17.41, longitude: 78.49 } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200, 404, 200, 403]);
    for (const a of answers) {
      expect(a.headers.get('cache-control')).toBe('no-store');
      expect(a.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('sign-in answers are not cached either', async () => {
    const res = await s.api('POST', '/api/auth/signin', { body: DEMO.operator });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('body size', () => {
  const TEN_MB = 10 * 1024 * 1024;
  const bigCase = () => JSON.stringify({ to: 'p@example.com', status: 'active', patientName: 'P', description: 'x'.repeat(TEN_MB), license_plate: 5 });

  it('a real 10 MB JSON body (with Content-Length) gets 413 {error}, writes nothing, and the server carries on', async () => {
    const body = bigCase();
    expect(body.length).toBeGreaterThan(TEN_MB);
    const res = await expectNoWrite(s.ctx.db, () => s.api('POST', '/live-location', { token: operator, raw: body }));
    expectError(res, 413, 'Request body is too large');
    expect((await s.api('GET', '/api/health')).body).toEqual({ status: 'ok' });
  });

  it('a 10 MB body streamed in chunks (no Content-Length) gets the same 413', async () => {
    const bytes = new TextEncoder().encode(bigCase());
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.slice(i, i + 64 * 1024));
        c.close();
      },
    });
    const res = await expectNoWrite(s.ctx.db, () => fetch(`${s.url}/api/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${operator}` },
      body: stream,
      duplex: 'half',
    }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Request body is too large' });
    expect((await s.api('GET', '/api/health')).status).toBe(200);
  });

  it('the public location link refuses a 10 MB body the same way', async () => {
    const caseId = await dispatchCase(s, operator, 6);
    const res = await s.api('POST', await locationSharePath(s, caseId), { raw: JSON.stringify({ latitude: 1, longitude: 2, pad: 'x'.repeat(TEN_MB) }) });
    expectError(res, 413, 'Request body is too large');
  });
});

describe('socket handshake origin (unit)', () => {
  const allowed = ['https://dispatch.example.org'];
  it.each([
    ['no Origin (a Node client)', {}, true],
    ['an allowed origin', { origin: 'https://dispatch.example.org' }, true],
    ["the server's own origin (same Host)", { origin: 'http://10.0.0.7:3000', host: '10.0.0.7:3000' }, true],
    ['another origin', { origin: 'https://evil.example', host: 'dispatch.example.org' }, false],
    ['an allowed host on another scheme', { origin: 'http://dispatch.example.org' }, false],
    ['another port of the same host', { origin: 'http://10.0.0.7:4000', host: '10.0.0.7:3000' }, false],
    ['the opaque origin null', { origin: 'null', host: 'null' }, false],
    ['garbage', { origin: 'not a url', host: 'dispatch.example.org' }, false],
  ])('%s → %s', (_what, headers: Record<string, string>, ok) => {
    expect(socketOriginAllowed({ headers }, allowed)).toBe(ok);
  });
});
