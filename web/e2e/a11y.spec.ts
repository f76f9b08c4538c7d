import { expect, test, type Page } from './fixtures';
import { expectNoViolations } from './axe';
import { ACCOUNTS, apiToken, closeCase, closeOpenCalls, dispatchCase, freeAmbulance, locationPath, outboxLinks, signIn, skipTimeUntil, trackRequests } from './helpers';

// WCAG 2.1 A/AA plus axe's best practices: every page a dispatcher, an admin or a patient opens
// must have none, of any impact. One screen per test, each on data the test makes itself (through
// the API: never what the demo history or another spec left), with the page's clock pinned, and
// axe run only once the page is settled: no request in flight, nothing fading (a colour caught
// mid-transition is not the colour a person reads), the live connection up.

// One screen a test: 30 s is plenty on a quiet machine; a loaded 2-core CI box takes 20 s+ for one,
// and over a minute for a long table beside another worker (27 Nov).
// Each test makes its own data on its worker's server: the file's tests may share out over the workers.
test.describe.configure({ mode: 'parallel', timeout: 120_000 });

const run = Date.now().toString(36).toUpperCase();
const PLATE = 'TS09 EA 1007';
const tag = (what: string) => `A11y ${what} ${run}`;

/** Every page's requests are counted from its first load, for settled(). */
test.beforeEach(({ page }) => trackRequests(page));

/** Cases a test opened: closed after it, so their ambulance is free for the other specs. */
const opened: { token: string; caseId: string }[] = [];
test.afterEach(async ({ page }) => {
  for (const c of opened.splice(0)) await closeCase(page, c.token, c.caseId);
});

/**
 * The page's clock stands still at the server's now plus `aheadMs`: what the browser's clock
 * decides (a position's "Stale" mark, "ago" texts, when cached data goes stale and is fetched
 * again) is the same on every run, whatever the time of day. Timers still run, so the app works
 * as usual. (The call clocks on the boards follow the server's Date header by design
 * (api/serverClock.ts), so they still show the seconds since the test made its calls.)
 */
async function pinClock(page: Page, aheadMs = 60_000) {
  const health = await page.request.get('/api/health');
  const serverNow = Date.parse(health.headers()['date'] ?? '') || Date.now();
  await page.clock.setFixedTime(serverNow + aheadMs);
}

/** Opens `path` signed in as `who` (a session as the sign-in page stores it: the form has its own test), in the theme asked. */
async function openAs(page: Page, who: keyof typeof ACCOUNTS, path: string, theme: 'light' | 'dark' = 'light') {
  const res = await page.request.post('/api/auth/signin', { data: ACCOUNTS[who] });
  expect(res.ok()).toBeTruthy();
  const { token, user } = await res.json();
  await page.addInitScript(({ token, user, dark }) => {
    localStorage.setItem('userEmail', user.email);
    localStorage.setItem('userToken', token);
    localStorage.setItem('userRole', user.role);
    localStorage.setItem('userName', user.username || user.email);
    localStorage.setItem('darkMode', String(dark));
  }, { token, user, dark: theme === 'dark' });
  await page.goto(path);
  // The screen's code has arrived (on a busy machine its chunks take a while; the boot shell shows until then).
  await expect(page.locator('.boot-shell')).toHaveCount(0, { timeout: 20_000 });
}

async function createCase(page: Page, token: string, data: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/api/cases', {
    headers: { authorization: `Bearer ${token}` },
    data: { to: `a11y.${run.toLowerCase()}@example.com`, caseType: 'Medical Emergency', description: 'Chest pain', ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).case.id;
}

/**
 * The calls the screens show, one of every kind a chip can draw: active P1 on PLATE, pending P2,
 * P3 and P4, a resolved and a closed call. Every other open call is closed first, so the live
 * board shows exactly these.
 */
async function callsOfEveryKind(page: Page) {
  await closeOpenCalls(page);
  const token = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, token, PLATE);
  const active = await createCase(page, token, { patientName: tag('Active'), priority: 1, ambulance_id: ambulance.id });
  opened.push({ token, caseId: active });
  for (const priority of [2, 3, 4]) opened.push({ token, caseId: await createCase(page, token, { patientName: tag(`Pending P${priority}`), status: 'pending', priority }) });
  for (const [status, priority] of [['resolved', 3], ['closed', 4]] as const) {
    const id = await createCase(page, token, { patientName: tag(status), status: 'pending', priority });
    const res = await page.request.put(`/api/cases/${id}`, { headers: { authorization: `Bearer ${token}` }, data: { status } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  return { active, activeName: tag('Active') };
}

/**
 * A failed load is final once the query's own retries are over and the panel offers Retry: until
 * then buttons wait disabled, and one enabled mid-check is caught half way through its fade (CI, 27 Nov).
 * The pinned clock's timers jump over the retries' back-off (1 s, then 2 s) instead of waiting it out.
 */
async function retriesOver(page: Page) {
  await skipTimeUntil(page, () => expect(page.getByTestId('load-failure').getByRole('button', { name: 'Retry' })).toBeEnabled({ timeout: 250 }));
}

/** One active case with a tracking link, dispatched as the operator form does. */
async function dispatchedCase(page: Page) {
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, PLATE);
  const caseId = await dispatchCase(page, operator, { to: `a11y.${run.toLowerCase()}@example.com`, patientName: tag('Patient'), description: 'Chest pain', ambulanceId: ambulance.id });
  opened.push({ token: operator, caseId });
  return { operator, caseId, ambulanceId: ambulance.id };
}

test.describe('axe-core finds no violation', () => {
  test.describe('when a load fails, and on not-found and wrong-role pages', () => {
    test('the cases board when its load failed', async ({ page }) => {
      await pinClock(page);
      await page.route('**/api/cases', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
      await openAs(page, 'operator', '/dashboard/cases');
      await expect(page.getByTestId('load-failure')).toBeVisible({ timeout: 15_000 });
      await retriesOver(page);
      await expectNoViolations(page, 'the cases board when its load failed');
    });

    test('the fleet screen when the cases failed', async ({ page }) => {
      await pinClock(page);
      await page.route('**/api/cases', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
      await openAs(page, 'operator', '/dashboard/ambulance-tracking');
      await expect(page.getByTestId('load-failure')).toBeVisible({ timeout: 15_000 });
      await retriesOver(page);
      await expectNoViolations(page, 'the fleet screen when the cases failed');
    });

    test('the not-found screen', async ({ page }) => {
      await pinClock(page);
      await openAs(page, 'operator', '/dashboard/no-such-screen');
      await expect(page.getByText('Page not found')).toBeVisible();
      await expectNoViolations(page, 'the not-found screen');
    });

    test('an admin page opened by an operator', async ({ page }) => {
      await pinClock(page);
      await openAs(page, 'operator', '/admin-dashboard');
      await expect(page.getByText('This page is for administrators')).toBeVisible();
      await expectNoViolations(page, 'an admin page opened by an operator');
    });
  });

  test('the landing page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoViolations(page, 'the landing page');
  });

  test('the sign-in page', async ({ page }) => {
    await page.goto('/signin');
    await expect(page.getByRole('button', { name: 'GET STARTED' })).toBeVisible();
    await expectNoViolations(page, 'the sign-in page');
  });

  for (const theme of ['light', 'dark'] as const) {
    test.describe(`operator screens (${theme})`, () => {
      test('the dashboard', async ({ page }) => {
        await callsOfEveryKind(page);
        await pinClock(page);
        await openAs(page, 'operator', '/dashboard', theme);
        await expect(page.getByRole('heading', { name: /dashboard/i }).first()).toBeVisible();
        await expectNoViolations(page, `the operator dashboard (${theme})`);
      });

      test('cases, Emergency Cases tab', async ({ page }) => {
        const { activeName } = await callsOfEveryKind(page);
        await pinClock(page);
        await openAs(page, 'operator', '/dashboard/cases', theme);
        await expect(page.getByText(activeName).first()).toBeVisible({ timeout: 10_000 });
        await expect(page.getByText(tag('Pending P4')).first()).toBeVisible();
        await expectNoViolations(page, `cases, Emergency Cases tab (${theme})`);
      });

      test('cases, All Cases tab', async ({ page }) => {
        const { activeName } = await callsOfEveryKind(page);
        await pinClock(page);
        await openAs(page, 'operator', '/dashboard/cases', theme);
        await page.getByRole('tab', { name: /All Cases/ }).click();
        await expect(page.getByRole('tab', { name: /All Cases/ })).toHaveAttribute('aria-selected', 'true');
        await expect(page.getByText(activeName).first()).toBeVisible({ timeout: 10_000 });
        await expectNoViolations(page, `cases, All Cases tab (${theme})`);
      });

      test('new case', async ({ page }) => {
        await pinClock(page);
        await openAs(page, 'operator', '/dashboard/new-case', theme);
        await expect(page.getByRole('button', { name: /dispatch/i }).first()).toBeVisible();
        await expectNoViolations(page, `new case (${theme})`);
      });

      test('fleet', async ({ page }) => {
        await callsOfEveryKind(page);
        await pinClock(page);
        await openAs(page, 'operator', '/dashboard/ambulance-tracking', theme);
        await expect(page.getByText(PLATE).first()).toBeVisible({ timeout: 10_000 });
        await expectNoViolations(page, `fleet (${theme})`);
      });

      test('the ambulance map, with stale positions', async ({ page }) => {
        await callsOfEveryKind(page);
        // Ten minutes on, every position is old: the map shows its amber 'Stale' marks too.
        await pinClock(page, 10 * 60_000);
        await openAs(page, 'operator', '/dashboard/ambulance-map', theme);
        await expect(page.getByRole('heading', { name: 'Ambulance Tracker' })).toBeVisible();
        await expect(page.getByTestId('map-list-item').first()).toBeVisible({ timeout: 10_000 });
        await expect(page.getByText('Stale').first()).toBeVisible();
        await expectNoViolations(page, `the ambulance map (${theme})`);
      });
    });
  }

  test.describe('admin screens', () => {
    test('the overview', async ({ page }) => {
      await callsOfEveryKind(page);
      await pinClock(page);
      await openAs(page, 'admin', '/admin-dashboard');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible({ timeout: 10_000 });
      await expectNoViolations(page, 'the admin overview');
    });

    for (const [path, what, loaded] of [
      ['/admin-dashboard/operators', 'Manage Operators', 'table tbody tr'],
      ['/admin-dashboard/ambulances', 'Manage Ambulances', 'table tbody tr'],
      ['/admin-dashboard/outbox', 'the outbox', 'article'],
    ] as const) {
      test(what, async ({ page }) => {
        await dispatchedCase(page); // its e-mail is in the outbox
        await pinClock(page);
        await openAs(page, 'admin', path);
        await expect(page.locator(loaded).first()).toBeVisible({ timeout: 10_000 });
        await expectNoViolations(page, what);
      });
    }

    test('All Cases', async ({ page }) => {
      const { active } = await callsOfEveryKind(page);
      await pinClock(page);
      await openAs(page, 'admin', '/admin-dashboard/cases');
      await expect(page.locator(`tr[data-case-id="${active}"]`)).toBeVisible({ timeout: 10_000 });
      await expectNoViolations(page, 'All Cases');
    });

    test('the Edit Case dialog', async ({ page }) => {
      const { active, activeName } = await callsOfEveryKind(page);
      await pinClock(page);
      await openAs(page, 'admin', '/admin-dashboard/cases');
      await page.locator(`tr[data-case-id="${active}"]`).getByRole('button', { name: `Edit case of ${activeName}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Case Information' });
      await expect(dialog.getByRole('heading', { name: 'Update Case' })).toBeVisible();
      await expectNoViolations(page, 'the Edit Case dialog');
    });
  });

  test.describe('toasts', () => {
    /** A toast hides itself after 5 s: the pointer on it holds it (notistack pauses on hover) while axe measures. */
    async function expectToastPasses(page: Page, text: string, what: string) {
      const toast = page.getByText(text);
      await expect(toast).toBeVisible();
      await toast.hover();
      await expectNoViolations(page, what);
      await expect(toast, 'the toast was on screen while axe measured').toBeVisible();
    }

    test('of success', async ({ page }) => {
      await pinClock(page);
      await openAs(page, 'admin', '/admin-dashboard/ambulances');
      const row = page.locator('table tbody tr', { hasText: 'TS09 EA 1008' });
      await row.getByRole('button', { name: /^Edit / }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Update Ambulance' }).click();
      await expectToastPasses(page, 'Ambulance updated successfully', 'a success toast');
    });

    test('of refusal, over the Add dialog', async ({ page }) => {
      await pinClock(page);
      await openAs(page, 'admin', '/admin-dashboard/ambulances');
      await page.getByRole('button', { name: 'Add New Ambulance' }).click();
      await page.getByRole('dialog').getByLabel(/License Plate/).fill('TS09 EA 1008');
      await page.getByRole('dialog').getByRole('button', { name: 'Add Ambulance' }).click();
      await expectToastPasses(page, 'An ambulance with license plate TS09 EA 1008 already exists', 'a refusal toast over the Add dialog');
    });
  });

  test.describe('the patient\'s pages', () => {
    test('the location page', async ({ page }) => {
      const { caseId } = await dispatchedCase(page);
      await pinClock(page);
      await page.goto(await locationPath(page, caseId));
      await expect(page.getByRole('button', { name: 'Share My Location' })).toBeVisible();
      await expectNoViolations(page, 'the location page');
    });

    test('the location page of a wrong link (Share off)', async ({ page }) => {
      const { caseId } = await dispatchedCase(page);
      await pinClock(page);
      await page.goto(`/location/${caseId}?t=${'x'.repeat(43)}`);
      await expect(page.getByTestId('location-invalid')).toBeVisible();
      await expectNoViolations(page, 'the location page of a wrong link (Share off)');
    });

    test('the public tracking page', async ({ page }) => {
      const { operator, caseId, ambulanceId } = await dispatchedCase(page);
      const sent = await page.request.post('/api/tracking/initiate', {
        headers: { authorization: `Bearer ${operator}` }, data: { caseId, ambulanceId, patientEmail: '', driverEmail: '' },
      });
      expect(sent.ok(), await sent.text()).toBeTruthy();
      const [track] = await outboxLinks(page, caseId, 'tracking-patient');
      await pinClock(page);
      // SPEC's progress bar moves for ever (1 % every 50 ms): with reduced motion it steps without
      // a transition, so the page can settle while it keeps cycling.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(track);
      await expect(page.getByRole('heading', { name: 'Ambulance Tracking' })).toBeVisible();
      await expect(page.getByTestId('tracking-badge')).toHaveText('Live Tracking Active');
      await expectNoViolations(page, 'the tracking page');
    });
  });
});

/** What the keyboard reached, and whether it shows a ring (outline or box-shadow) on its own. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const where = el.closest('nav') ? 'sidebar' : el.closest('header') ? 'header' : el.closest('main') ? 'main' : 'page';
    const name = el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName;
    return { name, where, ring, rect: el.getBoundingClientRect().toJSON() as DOMRect };
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`keyboard (${theme}): Skip to content first, then every sidebar and header control in turn, each with a visible focus ring`, async ({ page }) => {
    if (theme === 'dark') await page.addInitScript(() => localStorage.setItem('darkMode', 'true'));
    await signIn(page, 'operator', '/dashboard'); // focus starts at the top of a freshly loaded page
    await expect(page.getByRole('link', { name: 'Cases', exact: true })).toBeVisible();

    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip).toMatchObject({ name: 'Skip to content', ring: true });
    expect(skip!.rect.top, 'the skip link shows when focused').toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: `.tmp/a11y-skip-${theme}.png` });

    const seen: { name: string; where: string; ring: boolean }[] = [];
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (!now || now.where === 'main') break;
      seen.push({ name: now.name, where: now.where, ring: now.ring });
      if (now.name === 'Ambulance Map') await page.screenshot({ path: `.tmp/a11y-focus-sidebar-${theme}.png` });
      if (now.name === 'Toggle dark mode') await page.screenshot({ path: `.tmp/a11y-focus-header-${theme}.png` });
    }
    const names = seen.map((s) => s.name);
    for (const name of ['Dashboard', 'Cases', 'New Case', 'Ambulance Tracking', 'Ambulance Map', 'Reports', 'View Profile', 'Toggle sidebar', 'Toggle dark mode']) {
      expect(names, `${name} is reached by Tab`).toContain(name);
    }
    expect(seen.filter((s) => !s.ring), 'every stop shows a focus ring').toEqual([]);

    // Enter on a focused sidebar link navigates; Skip to content moves focus into the screen.
    await page.goto('/dashboard');
    await expect(page.getByRole('link', { name: 'Cases', exact: true })).toBeVisible();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 20 && (await focused(page))?.name !== 'Cases'; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/cases$/);
  });
}
