import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/testServer';

/**
 * The patient's /location/{caseId} is answered with the location page's own HTML
 * (location.html, its own small entry), with the same headers as the SPA's index.html; every
 * other client route still gets index.html, and so does /location/… in a build without it.
 */

const INDEX = '<!doctype html><title>Lifeline</title><div id="root"></div><!-- spa -->';
const LOCATION = '<!doctype html><title>Lifeline</title><div id="root"></div><!-- location -->';
const s = useTestServer();

beforeAll(() => {
  fs.mkdirSync(s.config.staticDir, { recursive: true });
  fs.writeFileSync(path.join(s.config.staticDir, 'index.html'), INDEX);
});

const get = (urlPath: string) => fetch(s.url + urlPath);
const locationFile = () => path.join(s.config.staticDir, 'location.html');

/** The headers an HTML answer is compared by (the CSP names the Host, the same for both). */
const htmlHeaders = (res: Response) => Object.fromEntries(
  ['content-type', 'cache-control', 'content-security-policy', 'referrer-policy', 'x-frame-options', 'x-content-type-options', 'cross-origin-opener-policy']
    .map((h) => [h, res.headers.get(h)]),
);

describe('the location page HTML', () => {
  it('answers /location/{caseId} (any id, a trailing slash, a query) with location.html and the SPA HTML headers', async () => {
    fs.writeFileSync(locationFile(), LOCATION);
    const spa = await get('/dashboard/cases');
    expect(spa.status).toBe(200);
    expect(await spa.text()).toBe(INDEX);
    for (const url of ['/location/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a', '/location/anything/', '/location/x?utm=mail']) {
      const res = await get(url);
      expect({ url, status: res.status, body: await res.text() }).toEqual({ url, status: 200, body: LOCATION });
      expect(htmlHeaders(res)).toEqual(htmlHeaders(spa));
    }
    expect(htmlHeaders(spa)).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'referrer-policy': 'no-referrer' });
  });

  it('leaves every other path to index.html, /locations and /location itself included', async () => {
    fs.writeFileSync(locationFile(), LOCATION);
    for (const url of ['/', '/track/1?t=x', '/locations/1', '/location']) {
      const res = await get(url);
      expect({ url, status: res.status, body: await res.text() }).toEqual({ url, status: 200, body: INDEX });
    }
  });

  it('falls back to index.html (the SPA route) when the build has no location page', async () => {
    fs.rmSync(locationFile(), { force: true });
    const res = await get('/location/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
  });
});
