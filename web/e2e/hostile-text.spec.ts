import { expect, test, type Page } from './fixtures';
import { animationsDone, apiToken, closeCase, dispatchCase, freeAmbulance, locationApiPath, locationPath, outboxLinks, signIn } from './helpers';

/**
 * Safe rendering: a case whose patient name and description hold markup and a
 * `javascript:` link is shown as text on every screen that shows cases and on the public
 * pages, and its e-mails are text only. On every page: `window.__xss` stays undefined, no
 * dialog opens, nothing of the text became an element (no `img[src=x]`, no script, no
 * `javascript:` link), and the text is visible literally where the screen shows it.
 *
 * Only the ambulance TS09 EA 1001 is used by this file; the case is closed at the end.
 */
const PLATE = 'TS09 EA 1001';
const run = Date.now().toString(36).slice(-5).toUpperCase();
const MARKUP = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const NAME = `${MARKUP} ${run}`;
const DESCRIPTION = `${MARKUP} javascript:alert(1) [open](javascript:alert(1)) ${run}`;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every dialog (alert, confirm, prompt) any page opened: none should. */
const dialogs: string[] = [];
function watch(page: Page) {
  page.on('dialog', async (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
}

/** Nothing of the hostile text ran or became an element on the page as it is now. */
async function expectInert(page: Page, where: string) {
  // An injected onerror runs when its image has failed: every image settled, then one more task.
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  const found = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: unknown }).__xss,
    brokenImages: document.querySelectorAll('img[src="x"]').length,
    scripts: [...document.scripts].filter((s) => s.textContent?.includes('__xss')).length,
    handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
    javascriptLinks: [...document.querySelectorAll('a[href], area[href]')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
  }));
  expect({ where, ...found, dialogs }).toEqual({ where, xss: undefined, brokenImages: 0, scripts: 0, handlers: 0, javascriptLinks: 0, dialogs: [] });
}

/** The hostile text, shown literally (as characters, not markup) somewhere visible on the page. */
async function expectLiteral(page: Page, text: string, where: string) {
  await expect(page.getByText(text, { exact: false }).first(), `${where}: ${text}`).toBeVisible();
}

test('patient- and operator-supplied text is shown as text on every screen, public page and e-mail', async ({ page, browser, defer }) => {
  test.setTimeout(120_000);
  watch(page);
  const operator = await apiToken(page, 'operator');
  const admin = await apiToken(page, 'admin');
  const ambulance = await freeAmbulance(page, operator, PLATE);
  const caseId = await dispatchCase(page, operator, { to: `hostile.${run.toLowerCase()}@example.com`, patientName: NAME, description: DESCRIPTION, ambulanceId: ambulance.id });

  defer(async () => {
    await closeCase(page, operator, caseId);
  });
  // The patient shares a location; the tracking links are sent.
  const shared = await page.request.post(await locationApiPath(page, caseId), { data: { latitude: 17.4199, longitude: 78.4983, accuracy: 25 } });
  expect(shared.ok(), await shared.text()).toBeTruthy();
  const tracking = await page.request.post('/api/tracking/initiate', { headers: auth(operator), data: { caseId, ambulanceId: ambulance.id } });
  expect(tracking.ok(), await tracking.text()).toBeTruthy();

  // The server stored and answers the text as it was typed.
  const stored = await page.request.get(`/api/cases/${caseId}`, { headers: auth(operator) });
  expect((await stored.json()).case).toMatchObject({ patientName: NAME, description: DESCRIPTION });

  await test.step('e-mails are text only and carry the text literally', async () => {
    const res = await page.request.get('/api/outbox?limit=100', { headers: auth(admin) });
    const mails = ((await res.json()).messages as Record<string, unknown>[]).filter((m) => m.case_id === caseId);
    // The dispatch mailed the patient and the crew; Send Tracker the patient and the crew again.
    expect(mails.map((m) => m.kind).sort()).toEqual(['share-location', 'tracking-driver', 'tracking-driver', 'tracking-patient']);
    for (const m of mails) {
      expect(Object.keys(m).filter((k) => /html/i.test(k))).toEqual([]);
      expect(m.text).toEqual(expect.stringContaining(m.kind === 'tracking-driver' ? `Patient: ${NAME}\n` : `Hello ${NAME},\n`));
      expect(String(m.text)).not.toMatch(/&lt;|&gt;|&quot;|&amp;/);
    }
    expect(mails.find((m) => m.kind === 'tracking-driver')!.text).toContain(`Emergency: ${DESCRIPTION}`);
  });

  await test.step('operator screens', async () => {
    await signIn(page, 'operator');
    await expectInert(page, '/dashboard');

    await page.goto('/dashboard/cases');
    await expect(page.getByRole('tab', { name: /Emergency Cases/ })).toBeVisible();
    await expectLiteral(page, NAME, 'Emergency Cases card: patient');
    await expectLiteral(page, DESCRIPTION, 'Emergency Cases card: description');
    await expectInert(page, '/dashboard/cases (Emergency Cases)');
    await page.getByRole('tab', { name: /All Cases/ }).click();
    await expectLiteral(page, NAME, 'All Cases table: patient');
    await expectLiteral(page, DESCRIPTION, 'All Cases table: description');
    await expectInert(page, '/dashboard/cases (All Cases)');

    await page.goto('/dashboard/ambulance-tracking');
    await expectLiteral(page, NAME, 'fleet status: current emergency patient');
    await expectLiteral(page, DESCRIPTION, 'fleet status: current emergency description');
    await expectInert(page, '/dashboard/ambulance-tracking');

    for (const path of ['/dashboard/ambulance-map', '/ambulance-map']) {
      await page.goto(path);
      const marker = page.getByTitle(`Patient ${NAME}`);
      await expect(marker).toBeVisible();
      // The map fits its markers once they load (an animated zoom): a click while it moves can land beside the pin.
      await animationsDone(page);
      await marker.click();
      await expect(page.locator('.leaflet-popup-content').getByText(NAME)).toBeVisible();
      await expectInert(page, `${path} with the patient's popup open`);
    }
  });

  await test.step('admin screens', async () => {
    await signIn(page, 'admin');
    await expectLiteral(page, NAME, 'admin overview: recent cases');
    await expectInert(page, '/admin-dashboard');

    await page.getByRole('navigation').getByRole('link', { name: 'All Cases' }).click();
    const row = page.locator(`tr[data-case-id="${caseId}"]`);
    await expect(row).toContainText(NAME);
    await expect(row).toContainText(DESCRIPTION);
    await expectInert(page, '/admin-dashboard/cases');

    await row.getByRole('button', { name: `Edit case of ${NAME}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Case Information' });
    await expect(dialog.getByLabel('Patient Name')).toHaveValue(NAME);
    await expect(dialog.getByPlaceholder('Emergency description')).toHaveValue(DESCRIPTION);
    await dialog.getByRole('button', { name: 'Case timeline' }).click();
    const entries = dialog.getByRole('list', { name: 'Case timeline entries' });
    await expect(entries).toContainText(NAME);
    // The staff reads of the patient's location on the screens above are on the timeline too (audit).
    await expect(entries).toContainText('Location viewed');
    await expectInert(page, 'Edit Case dialog with its timeline');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('navigation').getByRole('link', { name: 'Outbox' }).click();
    const message = page.getByRole('article', { name: `Message to hostile.${run.toLowerCase()}@example.com` }).filter({ hasText: 'please share your location' });
    await message.getByRole('button', { name: 'Show message' }).click();
    await expect(message).toContainText(`Hello ${NAME},`);
    const driverMail = page.getByRole('article').filter({ hasText: `Dispatch: case ${caseId.slice(0, 8)}` }).first();
    await driverMail.getByRole('button', { name: 'Show message' }).click();
    await expect(driverMail).toContainText(`Emergency: ${DESCRIPTION}`);
    await expectInert(page, '/admin-dashboard/outbox with the messages open');
  });

  await test.step('public pages (no sign-in)', async () => {
    const context = await browser.newContext();
    const pub = await context.newPage();
    watch(pub);
    defer(() => context.close());
    await pub.goto(await locationPath(page, caseId));
    await expect(pub.getByRole('heading', { name: 'Emergency Location Sharing' })).toBeVisible();
    await expectInert(pub, `/location/${caseId}`);

    const [viewerLink] = (await outboxLinks(page, caseId, 'tracking-patient')).filter((l) => l.startsWith('/track/'));
    await pub.goto(viewerLink);
    await expect(pub.getByRole('heading', { name: 'Ambulance Tracking' })).toBeVisible();
    await expect(pub.getByText(PLATE).first()).toBeVisible();
    await expectInert(pub, '/track/{id}?t=…');

    const [driverLink] = (await outboxLinks(page, caseId, 'tracking-driver')).filter((l) => l.startsWith('/driver/'));
    await pub.goto(driverLink);
    await expect(pub.getByTestId('driver-patient')).toHaveText(NAME);
    await expectLiteral(pub, DESCRIPTION, 'driver page: emergency');
    await expectInert(pub, '/driver/{id}?t=…');
  });
});
