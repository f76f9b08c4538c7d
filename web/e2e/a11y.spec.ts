import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, closeCase, dispatchCase, freeAmbulance, locationPath, outboxLinks, signIn } from './helpers';

// WCAG 2.1 A/AA plus axe's best practices: every page a dispatcher, an admin or a patient opens
// must have none, of any impact.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Runs axe on the page as it is now; fails listing each violation's rule, impact, targets and summary. */
async function expectNoViolations(page: Page, what: string) {
  // Animations settle first (a fading chip or dialog is measured at its final colours).
  await page.waitForTimeout(400);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const report = violations.flatMap((v) =>
    v.nodes.map((n) => `[${v.impact}] ${v.id}: ${n.target.join(' ')}\n    ${n.failureSummary?.replace(/\n/g, '\n    ')}`));
  expect.soft(report, `axe violations on ${what}:\n${report.join('\n')}`).toEqual([]);
}

const run = Date.now().toString(36).toUpperCase();
const PLATE = 'TS09 EA 1007';

/** Cases a test opened: closed after it, so their ambulance is free for the other specs. */
const opened: { operator: string; caseId: string }[] = [];
test.afterEach(async ({ page }) => {
  for (const c of opened.splice(0)) await closeCase(page, c.operator, c.caseId);
});

/** One active case with a tracking link, made through the API (set-up, not what the tests are about). */
async function activeCase(page: Page) {
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, PLATE);
  const patientName = `A11y Patient ${run}`;
  const caseId = await dispatchCase(page, operator, { to: `a11y.${run.toLowerCase()}@example.com`, patientName, description: 'Chest pain', ambulanceId: ambulance.id });
  opened.push({ operator, caseId });
  return { operator, caseId, patientName, ambulanceId: ambulance.id };
}

test.describe('axe-core finds no violation', () => {
  test('failure, not-found and wrong-role states', async ({ page }) => {
    await signIn(page, 'operator');
    await page.route('**/api/cases', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await page.goto('/dashboard/cases');
    await expect(page.getByTestId('load-failure')).toBeVisible({ timeout: 15_000 });
    await expectNoViolations(page, 'the cases board when its load failed');
    await page.goto('/dashboard/ambulance-tracking');
    await expect(page.getByTestId('load-failure')).toBeVisible({ timeout: 15_000 });
    await expectNoViolations(page, 'the fleet screen when the cases failed');
    await page.unroute('**/api/cases');
    await page.goto('/dashboard/no-such-screen');
    await expect(page.getByText('Page not found')).toBeVisible();
    await expectNoViolations(page, 'the not-found screen');
    await page.goto('/admin-dashboard');
    await expect(page.getByText('This page is for administrators')).toBeVisible();
    await expectNoViolations(page, 'an admin page opened by an operator');
  });

  test('landing and sign-in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoViolations(page, 'the landing page');
    await page.goto('/signin');
    await expect(page.getByRole('button', { name: 'GET STARTED' })).toBeVisible();
    await expectNoViolations(page, 'the sign-in page');
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`operator screens (${theme})`, async ({ page }) => {
      await activeCase(page);
      if (theme === 'dark') await page.addInitScript(() => localStorage.setItem('darkMode', 'true'));
      await signIn(page, 'operator');
      await expect(page.getByRole('heading', { name: /dashboard/i }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoViolations(page, `the operator dashboard (${theme})`);

      await page.goto('/dashboard/cases');
      await expect(page.getByText(`A11y Patient ${run}`).first()).toBeVisible({ timeout: 10_000 });
      await expectNoViolations(page, `cases, Emergency Cases tab (${theme})`);
      await page.getByRole('tab', { name: /All Cases/ }).click();
      await expect(page.getByRole('tab', { name: /All Cases/ })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByText(`A11y Patient ${run}`).first()).toBeVisible();
      await expectNoViolations(page, `cases, All Cases tab (${theme})`);

      await page.goto('/dashboard/new-case');
      await expect(page.getByRole('button', { name: /dispatch/i }).first()).toBeVisible();
      await expectNoViolations(page, `new case (${theme})`);

      await page.goto('/dashboard/ambulance-tracking');
      await expect(page.getByText(PLATE).first()).toBeVisible({ timeout: 10_000 });
      await expectNoViolations(page, `fleet (${theme})`);

      // Ten minutes on, every position is old: the map shows its amber 'Stale' marks too.
      await page.clock.setFixedTime(Date.now() + 10 * 60_000);
      await page.goto('/dashboard/ambulance-map');
      await expect(page.getByRole('heading', { name: 'Ambulance Tracker' })).toBeVisible();
      await expect(page.getByTestId('map-list-item').first()).toBeVisible({ timeout: 10_000 });
      await expect(page.getByText('Stale').first()).toBeVisible();
      await expectNoViolations(page, `the ambulance map (${theme})`);
    });
  }

  test('admin overview, tables and the Edit Case dialog', async ({ page }) => {
    const { patientName, caseId } = await activeCase(page);
    await signIn(page, 'admin');
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page, 'the admin overview');
    for (const [path, what, loaded] of [
      ['/admin-dashboard/operators', 'Manage Operators', 'table tbody tr'],
      ['/admin-dashboard/ambulances', 'Manage Ambulances', 'table tbody tr'],
      ['/admin-dashboard/outbox', 'the outbox', 'article'],
      ['/admin-dashboard/cases', 'All Cases', `tr[data-case-id="${caseId}"]`],
    ] as const) {
      await page.goto(path);
      await expect(page.locator(loaded).first()).toBeVisible({ timeout: 10_000 });
      await page.waitForLoadState('networkidle');
      await expectNoViolations(page, what);
    }
    await page.locator(`tr[data-case-id="${caseId}"]`).getByRole('button', { name: `Edit case of ${patientName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Case Information' });
    await expect(dialog.getByRole('heading', { name: 'Update Case' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page, 'the Edit Case dialog');
  });

  test('toasts of success and of refusal', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/admin-dashboard/ambulances');
    const row = page.locator('table tbody tr', { hasText: 'TS09 EA 1008' });
    await row.getByRole('button', { name: /^Edit / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Update Ambulance' }).click();
    await expect(page.getByText('Ambulance updated successfully')).toBeVisible();
    await expectNoViolations(page, 'a success toast');
    await page.getByRole('button', { name: 'Add New Ambulance' }).click();
    await page.getByRole('dialog').getByLabel(/License Plate/).fill('TS09 EA 1008');
    await page.getByRole('dialog').getByRole('button', { name: 'Add Ambulance' }).click();
    await expect(page.getByText('An ambulance with license plate TS09 EA 1008 already exists')).toBeVisible();
    await expectNoViolations(page, 'a refusal toast over the Add dialog');
  });

  test('the patient location page and the public tracking page', async ({ page }) => {
    const { operator, caseId, ambulanceId } = await activeCase(page);
    await page.goto(await locationPath(page, caseId));
    await expect(page.getByRole('button', { name: 'Share My Location' })).toBeVisible();
    await expectNoViolations(page, 'the location page');
    await page.goto(`/location/${caseId}?t=${'x'.repeat(43)}`);
    await expect(page.getByTestId('location-invalid')).toBeVisible();
    await expectNoViolations(page, 'the location page of a wrong link (Share off)');

    const sent = await page.request.post('/api/tracking/initiate', {
      headers: { authorization: `Bearer ${operator}` }, data: { caseId, ambulanceId, patientEmail: '', driverEmail: '' },
    });
    expect(sent.ok(), await sent.text()).toBeTruthy();
    const [track] = await outboxLinks(page, caseId, 'tracking-patient');
    await page.goto(track);
    await expect(page.getByRole('heading', { name: 'Ambulance Tracking' })).toBeVisible();
    await expect(page.getByTestId('tracking-badge')).toHaveText('Live Tracking Active');
    await expectNoViolations(page, 'the tracking page');
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
    await signIn(page, 'operator');
    await page.goto('/dashboard'); // focus starts at the top of a freshly loaded page
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
