// Page weight and speed as a phone sees them: starts the built app on a fresh database and, in
// Debian's Chromium (its own Accept-Encoding, so brotli), loads the public tracking page (a
// real tracking link, until the ambulance's marker shows), the public location page (a real
// share link) and the staff app's first load (sign-in → /dashboard). For each: the bytes the
// server really sent (every response's encoded size on the wire, headers included), and for
// the public pages the time until their heading shows under emulated slow 4G (150 ms RTT,
// 1.6 Mbit/s down, 750 kbit/s up) with a 4x slower CPU. Prints a markdown table; exits 1
// when a page is over its byte budget (times are reported against their goal, not enforced:
// they depend on the machine).
// Usage: npm run size   (run `npm run build` first; E2E_PORT picks the port, default 4361;
// STATIC_DIR another build than dist/web)
import { spawn } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type Wire, recordWire } from './weakPhone';

const port = process.env.E2E_PORT ?? '4361';
const base = `http://127.0.0.1:${port}`;
const server = spawn('node_modules/.bin/tsx', ['scripts/e2eServer.ts'], { env: { ...process.env, E2E_PORT: port }, stdio: 'ignore' });

const KB = 1024;

async function waitForHealth() {
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`${base}/api/health`)).ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

const signIn = async (email: string, username: string, phone: string) =>
  (await api<{ token: string }>('POST', '/api/auth/signin', null, { email, username, phone })).token;

/** A dispatched case on TS09 EA 1006 with its tracker sent: the patient's tracking and share links. */
async function publicLinks() {
  const operator = await signIn('operator@lifeline.test', 'Operator', '5550101');
  const admin = await signIn('admin@lifeline.test', 'Admin', '5550100');
  const { ambulances } = await api<{ ambulances: { id: number; license_plate: string }[] }>('GET', '/api/ambulances', operator);
  const ambulance = ambulances.find((a) => a.license_plate === 'TS09 EA 1006')!;
  const { caseId } = await api<{ caseId: string }>('POST', '/live-location', operator, {
    to: 'size.check@example.com', status: 'active', patientName: 'Size Check', description: 'Fall', license_plate: ambulance.id,
  });
  await api('POST', '/api/tracking/initiate', operator, { caseId, ambulanceId: ambulance.id, patientEmail: '', driverEmail: '' });
  const { messages } = await api<{ messages: { kind: string; case_id: string; links: string[] }[] }>('GET', '/api/outbox', admin);
  const link = (kind: string, prefix: string) => {
    const found = messages.filter((m) => m.case_id === caseId && m.kind === kind).flatMap((m) => m.links).map((l) => new URL(l)).find((u) => u.pathname.startsWith(prefix));
    if (!found) throw new Error(`no ${kind} link for case ${caseId}`);
    return found.pathname + found.search;
  };
  return { track: link('tracking-patient', '/track/'), location: link('share-location', '/location/'), ambulanceId: ambulance.id };
}

/** A fresh tab that records each response's encoded size as received; optionally a weak phone. */
async function tab(browser: Browser, weak: boolean) {
  const page = await (await browser.newContext()).newPage();
  const wire = await recordWire(await page.context().newCDPSession(page), { weak, noCache: true });
  return { page, wire };
}

/** Waits until no response has finished for 1.5 s (Socket.IO keeps its own socket open). */
async function settle(page: Page, wire: Wire[]) {
  let seen = -1;
  while (seen !== wire.length) {
    seen = wire.length;
    await page.waitForTimeout(1500);
  }
}

/** Opens `path` and resolves with the ms from navigation start until an h1 with `heading` is in the page. */
async function timeToHeading(page: Page, path: string, heading: string): Promise<number> {
  await page.goto(base + path, { waitUntil: 'commit' });
  const handle = await page.waitForFunction((text) => {
    const h1 = [...document.querySelectorAll('h1')].find((h) => h.textContent?.includes(text));
    return h1 && h1.getBoundingClientRect().height > 0 ? performance.now() : false;
  }, heading, { polling: 'raf', timeout: 30_000 });
  return Math.round(await handle.jsonValue() as number);
}

const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
const sum = (wire: Wire[], only?: (w: Wire) => boolean) => wire.filter(only ?? (() => true)).reduce((a, w) => a + w.bytes, 0);
const isAsset = (w: Wire) => /\/assets\/.+\.(js|css)$/.test(new URL(w.url).pathname);

interface Row { name: string; wire: Wire[]; budget: number; ms?: number; goalMs?: number }

try {
  await waitForHealth();
  const links = await publicLinks();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const rows: Row[] = [];

  // The tracking page, until its map shows the ambulance.
  {
    const { page, wire } = await tab(browser, true);
    const ms = await timeToHeading(page, links.track, 'Ambulance Tracking');
    await page.locator(`.leaflet-marker-icon[title="Ambulance #${links.ambulanceId}"]`).waitFor({ timeout: 30_000 });
    await settle(page, wire);
    rows.push({ name: 'public tracking page (/track/…, until the map shows the ambulance)', wire, budget: 150 * KB, ms, goalMs: 2000 });
  }
  // The location page, then Share My Location pressed (a script it fetched only on use counts too).
  {
    const { page, wire } = await tab(browser, true);
    const ms = await timeToHeading(page, links.location, 'Emergency Location Sharing');
    await page.context().grantPermissions(['geolocation']);
    await page.context().setGeolocation({ latitude: 17.4, longitude: 78.4 });
    await page.getByRole('button', { name: 'Share My Location' }).click();
    await page.getByText('Your location has been shared successfully.').waitFor({ timeout: 30_000 });
    await settle(page, wire);
    rows.push({ name: 'public location page (/location/…, location shared)', wire, budget: 40 * KB, ms, goalMs: 2000 });
  }
  // The staff app's first load, on a desktop's network.
  {
    const { page, wire } = await tab(browser, false);
    await page.goto(`${base}/signin`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('operator@lifeline.test');
    await page.getByLabel('Username').fill('Operator');
    await page.getByLabel('Phone Number').fill('5550101');
    await page.getByRole('button', { name: 'GET STARTED' }).click();
    await page.waitForURL(/\/dashboard$/);
    await settle(page, wire);
    rows.push({ name: 'staff app first load (sign-in → /dashboard)', wire, budget: 400 * KB });
  }
  await browser.close();

  console.log('| page | responses | on the wire | of which JS and CSS (encoding) | heading shown, slow 4G + 4x CPU | budget |\n|---|---|---|---|---|---|');
  for (const r of rows) {
    const total = sum(r.wire);
    const encodings = [...new Set(r.wire.filter(isAsset).map((w) => w.encoding ?? 'none'))].join(', ');
    const time = r.ms == null ? '–' : `${(r.ms / 1000).toFixed(2)} s (goal ≤ ${(r.goalMs! / 1000).toFixed(0)} s)`;
    console.log(`| ${r.name} | ${r.wire.length} | ${kb(total)} | ${kb(sum(r.wire, isAsset))} (${encodings}) | ${time} | ${kb(r.budget)} |`);
    if (total > r.budget) {
      console.error(`${r.name}: ${kb(total)} on the wire is over its budget of ${kb(r.budget)}`);
      process.exitCode = 1;
    }
    if (r.ms != null && r.ms > r.goalMs!) console.error(`${r.name}: heading after ${r.ms} ms, over the ${r.goalMs} ms goal (not enforced: machine-dependent)`);
  }
} finally {
  server.kill();
}
