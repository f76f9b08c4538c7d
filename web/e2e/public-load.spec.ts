import { expect, test, type Page } from './fixtures';
import { type Wire, recordWire } from '../../scripts/weakPhone';
import { apiToken, closeCase, dispatchCase, locationPath, outboxLinks } from './helpers';

// The public pages on a weak phone: Chromium emulating slow 4G (150 ms RTT, 1.6 Mbit/s down,
// 750 kbit/s up) and a 4x slower CPU. Asserted: the bytes on the wire stay under a budget,
// the files come brotli-encoded, the heading shows. Timings are measured by `npm run size`,
// never asserted here. Its own ambulance (TS09 EA 3001), made here: other specs keep theirs.

/** Budgets of bytes on the wire (headers included) for a first visit, with the map when there is one. */
const BUDGET = { track: 150 * 1024, location: 40 * 1024 };


/** Emulates the weak phone and records every response's encoded size as received. */
async function weakPhone(page: Page) {
  const wire = await recordWire(await page.context().newCDPSession(page), { weak: true });
  return {
    wire,
    total: () => wire.reduce((sum, w) => sum + w.bytes, 0),
    async settle() {
      // Socket.IO keeps its socket open: wait until no other response has finished for a while.
      let seen = -1;
      while (seen !== wire.length) {
        seen = wire.length;
        await page.waitForTimeout(1500);
      }
    },
  };
}

/** The app's own scripts and styles (not the page itself, not API answers) must come brotli-encoded. */
function expectBrotliAssets(wire: Wire[]) {
  const assets = wire.filter((w) => new URL(w.url).pathname.startsWith('/assets/') && /\.(js|css)$/.test(new URL(w.url).pathname));
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.map((a) => [new URL(a.url).pathname, a.encoding])).toEqual(assets.map((a) => [new URL(a.url).pathname, 'br']));
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

test('the tracking page on a weak phone: its heading, its map, under its byte budget, brotli on the wire', async ({ page, browser, defer }) => {
  test.setTimeout(60_000);
  const admin = await apiToken(page, 'admin');
  const operator = await apiToken(page, 'operator');
  const made = await page.request.post('/api/ambulances', {
    headers: { authorization: `Bearer ${admin}` }, data: { license_plate: 'TS09 EA 3001', email: 'driver3001@lifeline.test', latitude: 17.39, longitude: 78.47 },
  });
  expect(made.status(), await made.text()).toBe(201);
  const ambulance = (await made.json()).ambulance as { id: number };
  const caseId = await dispatchCase(page, operator, { to: 'weak.phone@example.com', patientName: 'Weak Phone', description: 'Fall', ambulanceId: ambulance.id });
  defer(async () => {
    await closeCase(page, operator, caseId);
  });
  const sent = await page.request.post('/api/tracking/initiate', {
    headers: { authorization: `Bearer ${operator}` }, data: { caseId, ambulanceId: ambulance.id, patientEmail: '', driverEmail: '' },
  });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  const [link] = (await outboxLinks(page, caseId, 'tracking-patient')).filter((l) => l.startsWith('/track/'));

  const phone = await (await browser.newContext()).newPage();
  const net = await weakPhone(phone);
  await phone.goto(link, { waitUntil: 'commit' });
  await expect(phone.getByRole('heading', { name: 'Ambulance Tracking' })).toBeVisible({ timeout: 10_000 });
  await expect(phone.getByTestId('tracking-badge')).toHaveText('Live Tracking Active', { timeout: 10_000 });
  await expect(phone.locator(`.leaflet-marker-icon[title="Ambulance #${ambulance.id}"]`)).toHaveCount(1, { timeout: 20_000 });
  await net.settle();

  expectBrotliAssets(net.wire);
  // No MUI, no router: the light entry's own files only.
  expect(net.wire.filter((w) => /\/assets\/(?!track-)[^/]+\.js$/.test(new URL(w.url).pathname)).map((w) => w.url)).toEqual([]);
  console.log(`tracking page: ${kb(net.total())} in ${net.wire.length} responses`);
  expect(net.total(), `bytes on the wire: ${kb(net.total())}`).toBeLessThan(BUDGET.track);
  await phone.context().close();
});

test('the location page on a weak phone: its heading, under its byte budget, brotli on the wire', async ({ page, browser, defer }) => {
  const operator = await apiToken(page, 'operator');
  const made = await page.request.post('/api/ambulances', {
    headers: { authorization: `Bearer ${await apiToken(page, 'admin')}` }, data: { license_plate: 'TS09 EA 3002' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const caseId = await dispatchCase(page, operator, { to: 'weak.phone2@example.com', patientName: 'Weak Phone', description: 'Fall', ambulanceId: (await made.json()).ambulance.id });
  defer(async () => {
    await closeCase(page, operator, caseId);
  });
  const link = await locationPath(page, caseId);
  const phone = await (await browser.newContext()).newPage();
  const net = await weakPhone(phone);
  await phone.goto(link, { waitUntil: 'commit' });
  await expect(phone.getByRole('heading', { name: 'Emergency Location Sharing' })).toBeVisible({ timeout: 10_000 });
  await expect(phone.getByRole('button', { name: 'Share My Location' })).toBeVisible();
  await net.settle();

  expectBrotliAssets(net.wire);
  console.log(`location page: ${kb(net.total())} in ${net.wire.length} responses`);
  expect(net.total(), `bytes on the wire: ${kb(net.total())}`).toBeLessThan(BUDGET.location);
  await phone.context().close();
});
