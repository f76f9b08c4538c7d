import { expect, test, type Page } from './fixtures';
import { ambulanceByPlate, apiPath, apiToken, closeCase, dispatchCase, settled, signIn, skipTimeUntil, storeSession, trackRequests } from './helpers';

// Issue 13, "Failure must look like failure": unknown is never shown as zero. Every list is
// made to fail with page.route (a 500, or the request aborted), and each screen must show the
// spec's error text in a persistent panel with Retry, and no count or empty state.
// Only ambulance TS09 EA 1002 is dispatched here (and freed at the end).
//
// The screens' own pages have the page's clock installed before they load: a failing query retries
// after 1 s and 2 s, and skipTimeUntil jumps over those waits instead of sitting them out.

// Each test makes its own failures on a fresh page, on its worker's own server: the file's tests may
// share out over the workers.
test.describe.configure({ mode: 'parallel' });

type Failure = '500' | 'abort';

/** Makes every request to `path` (exactly, no sub-paths) fail; answers a counter of the requests seen. */

async function failRoute(page: Page, path: string, how: Failure) {
  const seen = { count: 0 };
  await page.route(apiPath(path), (route) => {
    seen.count += 1;
    return how === 'abort' ? route.abort('failed') : route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
  });
  return seen;
}

/**
 * Five seconds of the page's clock (installed before it loaded) run at once, every timer due in them
 * fired, then the requests those timers started answered: a retry loop shows in the count without
 * waiting the five seconds.
 */
async function fiveSecondsLater(page: Page) {
  await page.clock.runFor(5_000);
  await settled(page);
}

const panel = (page: Page) => page.getByTestId('load-failure');
/** An expect that fails fast, for skipTimeUntil: each miss moves the page's clock on. */
const quick = { timeout: 250 };
const shot = (page: Page, name: string) => page.screenshot({ path: `.tmp/failure-states/${name}.png`, fullPage: true });

test.describe('operator screens', () => {
  test.beforeEach(async ({ page }) => {
    await storeSession(page, 'operator');
    await page.clock.install();
  });

  test('while the live connection is down, the board keeps its data and says updates are paused', async ({ page }) => {
    // The tab's socket never gets through (WebSocket and long-polling alike); REST still answers.
    await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
    await page.route('**/socket.io/**', (route) => route.abort('failed'));
    await page.goto('/dashboard/cases');
    await expect(page.getByTestId('count-total-cases')).toHaveText(/^\d+$/, { timeout: 15_000 });
    const notice = page.getByTestId('stale-notice');
    // The header waits five seconds for a first connection before it calls the socket down.
    await skipTimeUntil(page, () => expect(notice).toContainText(/Live updates are paused\. Showing data from .* may be out of date/, quick));
    await expect(panel(page)).toHaveCount(0);
    await shot(page, 'cases-offline');
  });

  test('cases board, 500: no counts, no "All clear!", a panel with Retry that stays until a load succeeds', async ({ page }) => {
    await failRoute(page, '/api/cases', '500');
    await page.goto('/dashboard/cases');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Failed to fetch cases from database', quick));
    await expect(panel(page).getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByText('All clear!')).toHaveCount(0);
    await expect(page.getByTestId('count-active-cases')).toHaveText('–');
    await expect(page.getByTestId('count-total-cases')).toHaveText('–');
    await expect(page.getByRole('tab', { name: 'Emergency Cases' })).toHaveText('Emergency Cases');
    await page.getByRole('tab', { name: 'All Cases' }).click();
    await expect(page.getByText('No cases found')).toHaveCount(0);
    await shot(page, 'cases-500');
    // Still there after the toast has gone (it hides itself after a few seconds).
    await skipTimeUntil(page, () => expect(page.locator('#notistack-snackbar')).toHaveCount(0, quick));
    await expect(panel(page)).toBeVisible();
    await expect(panel(page).getByRole('button', { name: 'Retry' })).toBeEnabled();

    await page.unroute(apiPath('/api/cases'));
    await panel(page).getByRole('button', { name: 'Retry' }).click();
    await expect(panel(page)).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByTestId('count-total-cases')).toHaveText(/^\d+$/);
  });

  test('cases board, aborted request: the exception text', async ({ page }) => {
    await failRoute(page, '/api/cases', 'abort');
    await page.goto('/dashboard/cases');
    await skipTimeUntil(page, () => expect(panel(page).getByText('Failed to fetch cases', { exact: true })).toBeVisible(quick));
    await expect(page.getByText('All clear!')).toHaveCount(0);
  });

  test('cases board that had data and fails to refresh keeps it and says it may be out of date', async ({ page }) => {
    await page.goto('/dashboard/cases');
    await expect(page.getByTestId('count-total-cases')).toHaveText(/^\d+$/);
    const total = await page.getByTestId('count-total-cases').textContent();
    await failRoute(page, '/api/cases', '500');
    await page.getByRole('button', { name: 'Refresh' }).click();
    const notice = page.getByTestId('stale-notice');
    await skipTimeUntil(page, () => expect(notice).toContainText(/Showing data from .* may be out of date/, quick));
    await expect(notice).toHaveAttribute('role', 'status');
    // Disabled while the query's own retries run, then offered.
    await skipTimeUntil(page, () => expect(notice.getByRole('button', { name: 'Retry' })).toBeEnabled(quick));
    await expect(page.getByTestId('count-total-cases')).toHaveText(total!);
    await expect(panel(page)).toHaveCount(0);
    await shot(page, 'cases-stale');

    await page.unroute(apiPath('/api/cases'));
    await notice.getByRole('button', { name: 'Retry' }).click();
    await expect(notice).toHaveCount(0, { timeout: 15_000 });
  });

  test('summary: tiles and fleet overview are unknown, not zero', async ({ page }) => {
    await failRoute(page, '/api/ambulances', '500');
    await page.goto('/dashboard');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Failed to load dashboard data', quick));
    for (const tile of ['active-cases', 'available-ambulances', 'busy-ambulances', 'total-fleet']) {
      await expect(page.getByTestId(`tile-${tile}`)).toHaveText('–');
    }
    await expect(page.getByTestId('fleet-utilization')).toHaveText('–');
    await expect(page.getByTestId('fleet-available')).toHaveText('–');
    await expect(page.getByTestId('fleet-in-service')).toHaveText('–');
    await shot(page, 'summary-500');
  });

  test('fleet status: no counters, no filter counts, no "No ambulances found"', async ({ page }) => {
    await failRoute(page, '/api/ambulances', '500');
    await page.goto('/dashboard/ambulance-tracking');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Error loading ambulance data.', quick));
    for (const c of ['on-emergency', 'available', 'busy']) await expect(page.getByTestId(`fleet-counter-${c}`)).toHaveText('–');
    await expect(page.getByRole('button', { name: 'Busy', exact: true })).toBeVisible();
    await expect(page.getByText('No ambulances found')).toHaveCount(0);
    await shot(page, 'fleet-500');
  });

  test('fleet status with the cases failing: the classes are unknown', async ({ page }) => {
    await failRoute(page, '/api/cases', 'abort');
    await page.goto('/dashboard/ambulance-tracking');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Error loading cases data.', quick));
    await expect(page.getByTestId('fleet-counter-busy')).toHaveText('–');
    await expect(page.getByTestId('fleet-class-badge')).toHaveCount(0);
  });

  test('ambulance map, 500 and abort: the spec texts, no legend counts, no empty message', async ({ page }) => {
    await failRoute(page, '/api/ambulances', '500');
    await page.goto('/dashboard/ambulance-map');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Failed to fetch ambulances', quick));
    await expect(page.getByTestId('legend-available')).toContainText('–');
    await expect(page.getByTestId('legend-busy')).toContainText('–');
    await expect(page.getByText('No ambulances with location data found')).toHaveCount(0);
    await expect(page.getByTestId('map-subtitle')).not.toContainText('moving live');
    await shot(page, 'map-500');

    await page.unroute(apiPath('/api/ambulances'));
    await failRoute(page, '/api/ambulances', 'abort');
    await page.reload();
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Error fetching ambulances', quick));
  });

  test('profile, 500: the spec texts, bounded retries, no request loop', async ({ page }) => {
    const seen = await failRoute(page, '/api/auth/profile', '500');
    trackRequests(page);
    await page.goto('/dashboard/profile');
    await skipTimeUntil(page, () => expect(page.getByText('Failed to fetch user profile')).toBeVisible(quick));
    await expect(page.getByText('No profile data available')).toBeVisible();
    const after = seen.count;
    await fiveSecondsLater(page);
    expect(seen.count, 'profile requests in 5 s after the failure was shown').toBe(after);
    // The shell's load (one try, two retries) and at most one more round when the live socket connects.
    expect(seen.count, 'bounded retries').toBeLessThanOrEqual(6);
    await shot(page, 'profile-500');
  });
});

test.describe('admin screens', () => {
  test.beforeEach(async ({ page }) => {
    await storeSession(page, 'admin');
    await page.clock.install();
  });

  test('overview: a failed list is named, its tiles unknown, the others shown', async ({ page }) => {
    await failRoute(page, '/api/users/operators', '500');
    await page.goto('/admin-dashboard');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Could not load operators data', quick));
    await expect(page.getByTestId('tile-Total Operators')).toContainText('–');
    await expect(page.getByTestId('tile-Total Cases')).toContainText(/\d/);
    await shot(page, 'admin-overview-500');
  });

  test('overview with the cases aborted: dashboard text, no "No recent cases", no zeroed counts', async ({ page }) => {
    await failRoute(page, '/api/cases', 'abort');
    await page.goto('/admin-dashboard');
    await skipTimeUntil(page, () => expect(panel(page)).toContainText('Failed to load dashboard data', quick));
    await expect(page.getByText('No recent cases')).toHaveCount(0);
    for (const t of ['Active Cases', 'Total Cases', 'Busy Ambulances', 'Fleet Utilization']) await expect(page.getByTestId(`tile-${t}`)).toContainText('–');
  });

  const tables = [
    { path: '/admin-dashboard/operators', api: '/api/users/operators', text: 'Failed to fetch operators', empty: 'No operators found' },
    { path: '/admin-dashboard/ambulances', api: '/api/ambulances', text: 'Failed to fetch ambulances', empty: 'No ambulances found' },
    { path: '/admin-dashboard/cases', api: '/api/cases', text: 'Could not load cases', empty: 'No cases found' },
    { path: '/admin-dashboard/outbox', api: '/api/outbox', text: 'Failed to load messages', empty: 'No messages yet' },
  ];
  for (const t of tables) {
    test(`table ${t.path}: "${t.text}" with Retry, never "${t.empty}"`, async ({ page }) => {
      await failRoute(page, t.api, '500');
      trackRequests(page);
      await page.goto(t.path);
      await skipTimeUntil(page, () => expect(panel(page)).toContainText(t.text, quick));
      await expect(page.getByText(t.empty)).toHaveCount(0);
      if (t.api === '/api/ambulances') await expect(page.getByTestId('ambulance-total')).toHaveText('Total: –');
      // The query's own retries are over: the panel stays, and its Retry is offered.
      await skipTimeUntil(page, () => expect(panel(page).getByRole('button', { name: 'Retry' })).toBeEnabled(quick));
      await fiveSecondsLater(page);
      await expect(panel(page)).toContainText(t.text);
      await page.unroute(apiPath(t.api));
      await panel(page).getByRole('button', { name: 'Retry' }).click();
      await expect(panel(page)).toHaveCount(0, { timeout: 15_000 });
    });
  }

  test('admin profile, aborted: "Failed to load user data", no request loop', async ({ page }) => {
    const seen = await failRoute(page, '/api/auth/profile', 'abort');
    trackRequests(page);
    await page.goto('/admin-dashboard/profile');
    await skipTimeUntil(page, () => expect(page.getByText('Failed to load user data')).toBeVisible(quick));
    await expect(page.getByText('No profile data available')).toBeVisible();
    const after = seen.count;
    await fiveSecondsLater(page);
    expect(seen.count).toBe(after);
    expect(seen.count).toBeLessThanOrEqual(6);
  });
});

test('every screen counts an ambulance in the class its badge names', async ({ page, defer }) => {
  const operator = await apiToken(page, 'operator');
  const onCase = await ambulanceByPlate(page, operator, 'TS09 EA 1002');
  const caseId = await dispatchCase(page, operator, { to: 'failure.states@example.com', patientName: 'Counted Once', description: 'Fall', ambulanceId: onCase.id });
  // The server makes the dispatched ambulance busy: the fleet screen counts it On Emergency.
  defer(async () => {
    await closeCase(page, operator, caseId);
  });
  await signIn(page, 'operator', '/dashboard/ambulance-tracking');
  await expect(page.getByTestId(`fleet-row-${onCase.id}`).getByTestId('fleet-class-badge')).toHaveText('On Emergency');
  const counter = async (c: string) => Number(await page.getByTestId(`fleet-counter-${c}`).textContent());
  const counters = { 'On Emergency': await counter('on-emergency'), Available: await counter('available'), Busy: await counter('busy') };
  // Each counter equals the number of rows whose badge says its name.
  for (const [label, n] of Object.entries(counters)) {
    await expect(page.getByTestId('fleet-class-badge').filter({ hasText: new RegExp(`^${label}$`) })).toHaveCount(n);
  }
  expect(counters['On Emergency']).toBeGreaterThanOrEqual(1);

  await page.goto('/dashboard');
  await expect(page.getByTestId('tile-busy-ambulances')).toHaveText(String(counters['On Emergency'] + counters.Busy));
  await expect(page.getByTestId('tile-busy-ambulances-caption')).toHaveText(`${counters['On Emergency']} On Emergency · ${counters.Busy} Busy`);
  await expect(page.getByTestId('tile-available-ambulances')).toHaveText(String(counters.Available));
  await shot(page, 'summary-counts');
});

test('the map does not claim "moving live" when every marker is stale', async ({ page }) => {
  // Every position an hour old, whatever the demo data holds.
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  await page.route('**/api/ambulances', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const a of body.ambulances) if (a.location) a.location.updated_at = hourAgo;
    await route.fulfill({ response: res, json: body });
  });
  await signIn(page, 'operator', '/dashboard/ambulance-map');
  const items = page.getByTestId('map-list-item');
  await expect(items.first()).toBeVisible();
  const n = await items.count();
  await expect(page.locator('[data-testid="map-list-item"][data-stale="true"]')).toHaveCount(n);
  await expect(page.getByTestId('map-subtitle')).not.toContainText('moving live');
  await expect(page.getByTestId('map-subtitle')).toHaveText(`${n} ambulances on the map · No live positions — last known shown`);
  await shot(page, 'map-stale');
});
