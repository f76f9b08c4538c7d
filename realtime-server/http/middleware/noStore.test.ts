import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { access } from '../../policies/permissions';
import { dispatchCase, shareLocation, trackingTokens } from '../../testing/dispatchHelpers';
import { type ApiResult, useTestServer } from '../../testing/testServer';

/**
 * Every answer under /api/ and /live-location carries `Cache-Control: no-store` (patient
 * names, positions and links must not sit in a browser's or a proxy's cache), successes and
 * refusals alike, but the API document (the same for everyone); the built web app keeps its own
 * policy (index no-cache, hashed assets immutable).
 */

const s = useTestServer();
let operator: string;
let admin: string;
let caseId: string;
let viewer: string;
let driver: string;

beforeAll(async () => {
  [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  caseId = await dispatchCase(s, operator, 2);
  ({ viewer, driver } = await trackingTokens(s, operator, caseId, 2));
  fs.mkdirSync(path.join(s.config.staticDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(s.config.staticDir, 'index.html'), '<!doctype html><title>Lifeline</title>');
  fs.writeFileSync(path.join(s.config.staticDir, 'assets', 'app-1234.js'), 'console.log(1)');
});

function expectNoStore(what: string, res: ApiResult, status?: number) {
  expect({ what, status: status === undefined ? undefined : res.status, cache: res.headers.get('cache-control') })
    .toEqual({ what, status, cache: 'no-store' });
}

describe('answers with patient data', () => {
  it('GET /api/cases, GET /api/cases/{id}, the timeline, the outbox', async () => {
    expectNoStore('cases', await s.api('GET', '/api/cases', { token: operator }), 200);
    expectNoStore('case', await s.api('GET', `/api/cases/${caseId}`, { token: operator }), 200);
    expectNoStore('timeline', await s.api('GET', `/api/cases/${caseId}/timeline`, { token: admin }), 200);
    expectNoStore('outbox', await s.api('GET', '/api/outbox', { token: admin }), 200);
  });

  it('POST /live-location (201, and its refusals: 400, 401, 409)', async () => {
    expectNoStore('dispatch', await s.api('POST', '/live-location', { token: operator, body: { to: 'p@example.com', status: 'active', patientName: 'Ravi', description: 'Fall', license_plate: 3 } }), 201);
    expectNoStore('bad body', await s.api('POST', '/live-location', { token: operator, body: { to: 'nope' } }), 400);
    expectNoStore('no session', await s.api('POST', '/live-location', { body: {} }), 401);
    expectNoStore('busy ambulance', await s.api('POST', '/live-location', { token: operator, body: { to: 'p@example.com', status: 'active', patientName: 'Ravi', description: 'Fall', license_plate: 3 } }), 409);
  });

  it('the public links: GET /api/track/{id}?t= and POST /api/location/{caseId}, and their refusals', async () => {
    expectNoStore('track', await s.api('GET', `/api/track/2?t=${viewer}`), 200);
    expectNoStore('track as driver', await s.api('GET', `/api/track/2?t=${driver}`), 200);
    expectNoStore('track, wrong token', await s.api('GET', '/api/track/2?t=wrong'), 404);
    expectNoStore('share', await shareLocation(s, caseId, { latitude: 17.4, longitude: 78.5 }), 200);
    expectNoStore('share, unknown case', await s.api('POST', '/api/location/00000000-0000-4000-8000-000000000000', { body: { latitude: 17.4, longitude: 78.5 } }), 404);
  });

  it('errors of every kind: 404 (unknown path), 405 or 404 (unserved method), 400 (bad JSON), 413', async () => {
    expectNoStore('unknown API path', await s.api('GET', '/api/nothing-here', { token: operator }), 404);
    const method = await s.api('PATCH', '/api/cases', { token: operator, body: {} });
    expect([404, 405]).toContain(method.status);
    expectNoStore('method', method);
    expectNoStore('bad JSON', await s.api('POST', '/api/cases', { token: operator, raw: '{nope' }), 400);
    expectNoStore('too large', await s.api('POST', '/api/cases', { token: operator, raw: JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }) }), 413);
  });
});

describe('every route in the access table', () => {
  // The API document is the same for everyone and holds no patient data: cacheable (http/openapi.test.ts).
  const PUBLIC = new Set(['GET /api/openapi.json']);
  const routes = Object.keys(access).filter((k) => !k.startsWith('socket:') && !PUBLIC.has(k)).map((k) => k.split(' ') as [string, string]);

  it.each(routes)('%s %s, signed in as admin and anonymous', async (method, route) => {
    const urlPath = route
      .replace(':caseId', caseId)
      .replace(':ambulanceId', '2')
      .replace(':id/', (route.startsWith('/api/cases') ? caseId : '999999') + '/')
      .replace(/:id$/, route.startsWith('/api/cases') ? caseId : '999999');
    // A body that no route accepts as is: the answer may be a refusal, and it must not be cached either.
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    for (const token of [admin, undefined]) {
      const res = await s.api(method, urlPath, { token, body });
      expectNoStore(`${method} ${urlPath} ${token ? 'admin' : 'anonymous'} → ${res.status}`, res);
    }
  });
});

describe('the web app keeps its own caching', () => {
  it('index.html no-cache, hashed assets immutable', async () => {
    expect((await fetch(`${s.url}/dashboard`)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${s.url}/assets/app-1234.js`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
