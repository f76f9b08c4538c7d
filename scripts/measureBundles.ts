// Page weight as a browser sees it: starts the built app on a fresh database, loads the
// public location page (its own entry, location.html: opened, then Share My Location pressed,
// so a script it fetched only on use counts too) and the staff app's first load (sign-in →
// /dashboard) in Debian's Chromium, and sums the gzip size of every JavaScript file each one
// fetched. Exits 1 when a page is over its budget.
// Usage: npm run size   (run `npm run build` first; E2E_PORT picks the port, default 4361;
// STATIC_DIR another build than dist/web)
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';

const port = process.env.E2E_PORT ?? '4361';
const base = `http://127.0.0.1:${port}`;
const server = spawn('node_modules/.bin/tsx', ['scripts/e2eServer.ts'], { env: { ...process.env, E2E_PORT: port }, stdio: 'ignore' });

async function waitForHealth() {
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`${base}/api/health`)).ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

/** Records every JS response of a page: url → [raw bytes, gzip bytes]. */
function recordJs(page: Page) {
  const seen = new Map<string, [number, number]>();
  page.on('response', async (res) => {
    if (!/\.m?js(\?|$)/.test(res.url())) return;
    const body = await res.body().catch(() => null);
    if (body) seen.set(res.url(), [body.length, gzipSync(body, { level: 9 }).length]);
  });
  return seen;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const total = (m: Map<string, [number, number]>) => [...m.values()].reduce((a, [r, g]) => [a[0] + r, a[1] + g], [0, 0]);

try {
  await waitForHealth();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const publicPage = await browser.newPage();
  const publicJs = recordJs(publicPage);
  await publicPage.goto(`${base}/location/00000000-0000-4000-8000-000000000000`, { waitUntil: 'networkidle' });
  await publicPage.context().grantPermissions(['geolocation']);
  await publicPage.context().setGeolocation({ latitude: 17.4, longitude: 78.4 });
  await publicPage.getByRole('button', { name: 'Share My Location' }).click();
  await publicPage.getByText('Case not found').waitFor(); // no such case: the server's answer is shown
  await publicPage.waitForLoadState('networkidle');

  const staffPage = await browser.newPage();
  const staffJs = recordJs(staffPage);
  await staffPage.goto(`${base}/signin`, { waitUntil: 'networkidle' });
  await staffPage.getByLabel('Email').fill('operator@lifeline.test');
  await staffPage.getByLabel('Username').fill('Operator');
  await staffPage.getByLabel('Phone Number').fill('5550101');
  await staffPage.getByRole('button', { name: 'GET STARTED' }).click();
  await staffPage.waitForURL(/\/dashboard$/);
  await staffPage.waitForLoadState('networkidle');
  await browser.close();

  // Budgets, gzip: the location page for weak phones (issue 6), the staff app's first load.
  const rows = [
    ['public location page', publicJs, 60 * 1024],
    ['staff app first load (sign-in → /dashboard)', staffJs, 300 * 1024],
  ] as const;
  console.log('| page | JS files | raw | gzip | budget (gzip) |\n|---|---|---|---|---|');
  for (const [name, m, budget] of rows) {
    const [raw, gz] = total(m);
    console.log(`| ${name} | ${m.size} | ${kb(raw)} | ${kb(gz)} | ${kb(budget)} |`);
    if (gz > budget) {
      console.error(`${name}: ${kb(gz)} gzip is over its budget of ${kb(budget)}`);
      process.exitCode = 1;
    }
  }
} finally {
  server.kill();
}
