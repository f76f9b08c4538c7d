import { expect, test, type Page } from './fixtures';
import { apiToken, closeCase, dispatchCase, openAs } from './helpers';

// The staff screens keep what they show (filter, period, page) in the URL: a reload, Back and a
// shared link show the same view, and a hand-edited URL falls back to the defaults. This file
// uses only the ambulances it creates (and deletes) and the mail it queues itself.
const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
// What a page shows after a navigation or reload is waited for this long: the machine may be shared and busy.
const LOADED = { timeout: 30_000 };
test.describe.configure({ timeout: 120_000 });

async function createAmbulance(page: Page, admin: string, plate: string): Promise<number> {
  const res = await page.request.post('/api/ambulances', { headers: auth(admin), data: { license_plate: plate, status: 'available', email: `url.driver.${run.toLowerCase()}@example.com` } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).ambulance.id;
}

test('the outbox keeps its status and page across a reload, Back and Forward; a hand-edited URL falls back to the defaults', async ({ page, defer }) => {
  const admin = await apiToken(page, 'admin');
  const ambulanceId = await createAmbulance(page, admin, `E2E URL O ${run}`);
  const to = `url.outbox.${run.toLowerCase()}@example.com`;
  // 27 queued messages newer than any other: the share-location mail, then 13 tracking pairs (patient, driver).
  const caseId = await dispatchCase(page, admin, { to, patientName: `E2E Url ${run}`, description: 'Fall', ambulanceId });
  defer(async () => {
    await closeCase(page, admin, caseId);
    await page.request.delete(`/api/ambulances/${ambulanceId}`, { headers: auth(admin) });
  });
  for (let i = 0; i < 13; i++) {
    const sent = await page.request.post('/api/tracking/initiate', { headers: auth(admin), data: { caseId, ambulanceId } });
    expect(sent.ok(), await sent.text()).toBeTruthy();
  }
  await openAs(page, 'admin', '/admin-dashboard/outbox');
  const main = page.locator('main');
  const pager = page.getByLabel('Outbox pages');
  const status = main.getByRole('combobox', { name: 'Status' });
  const shareMail = page.getByRole('article', { name: `Message to ${to}` }).filter({ hasText: 'please share your location' });
  await expect(pager).toContainText(/1–25 of \d+/, LOADED);

  await status.click();
  await page.getByRole('option', { name: 'Queued', exact: true }).click();
  await expect(page).toHaveURL(/[?&]status=queued(&|$)/);
  await pager.getByRole('button', { name: 'Go to next page' }).click();
  await expect(pager).toContainText(/26–\d+ of \d+/);
  await expect(page).toHaveURL(/[?&]cursor=/);
  await expect(shareMail).toBeVisible();

  await page.reload();
  await expect(pager).toContainText(/26–\d+ of \d+/, LOADED);
  await expect(status).toHaveText('Queued');
  // The second of page 2 is still this case's share-location mail: the same page, not only its label.
  await expect(page.getByRole('article').nth(1)).toHaveAccessibleName(`Message to ${to}`);
  await expect(page.getByRole('article').nth(1)).toContainText('please share your location');

  await page.goBack();
  await expect(pager).toContainText(/1–25 of \d+/);
  await expect(status).toHaveText('Queued');
  await expect(shareMail).toHaveCount(0);
  await page.goForward();
  await expect(pager).toContainText(/26–\d+ of \d+/);
  await expect(shareMail).toBeVisible();

  // Garbage is dropped field by field: every status, 25 a page, the first page.
  await page.goto('/admin-dashboard/outbox?status=lost&limit=500&page=x');
  await expect(pager).toContainText(/1–25 of \d+/, LOADED);
  await expect(status).toHaveText('All');
  await expect(page.getByRole('article')).toHaveCount(25);
  // A cursor the server refuses (an old link) gives way to the newest page, the rest of the search kept.
  await page.goto('/admin-dashboard/outbox?status=queued&limit=50&cursor=not-a-cursor&page=4');
  await expect(page).not.toHaveURL(/cursor=/, LOADED);
  await expect(pager).toContainText(/1–\d+ of \d+/, LOADED);
  await expect(pager.getByRole('combobox')).toHaveText('50');
  await expect(page).toHaveURL(/[?&]limit=50(&|$)/);
  await expect(status).toHaveText('Queued');
});

test('the fleet filter survives a reload, and an unknown one shows every ambulance', async ({ page, defer }) => {
  const admin = await apiToken(page, 'admin');
  const onCall = await createAmbulance(page, admin, `E2E URL E ${run}`);
  const free = await createAmbulance(page, admin, `E2E URL F ${run}`);
  const caseId = await dispatchCase(page, admin, { to: `url.fleet.${run.toLowerCase()}@example.com`, patientName: `E2E Url Fleet ${run}`, description: 'Fall', ambulanceId: onCall });
  defer(async () => {
    await closeCase(page, admin, caseId);
    for (const id of [onCall, free]) await page.request.delete(`/api/ambulances/${id}`, { headers: auth(admin) });
  });
  await openAs(page, 'operator', '/dashboard/ambulance-tracking');
  const filters = page.getByRole('group', { name: 'Filter ambulances' });
  const button = (name: string) => filters.getByRole('button', { name: new RegExp(`^${name}`) });
  await expect(page.getByTestId(`fleet-row-${free}`)).toBeVisible(LOADED);

  await button('On Emergency').click();
  await expect(page).toHaveURL(/[?&]filter=emergency(&|$)/);
  await expect(page.getByTestId(`fleet-row-${onCall}`)).toBeVisible();
  await expect(page.getByTestId(`fleet-row-${free}`)).toHaveCount(0);

  await page.reload();
  await expect(button('On Emergency')).toHaveAttribute('aria-pressed', 'true', LOADED);
  await expect(page.getByTestId(`fleet-row-${onCall}`)).toBeVisible(LOADED);
  await expect(page.getByTestId(`fleet-row-${free}`)).toHaveCount(0);

  await page.goBack();
  await expect(button('All Ambulances')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId(`fleet-row-${free}`)).toBeVisible();

  await page.goto('/dashboard/ambulance-tracking?filter=sideways');
  await expect(button('All Ambulances')).toHaveAttribute('aria-pressed', 'true', LOADED);
  await expect(page.getByTestId(`fleet-row-${onCall}`)).toBeVisible(LOADED);
  await expect(page.getByTestId(`fleet-row-${free}`)).toBeVisible();
});

test('the reports period survives a reload; a custom period is a link', async ({ page }) => {
  await openAs(page, 'operator', '/dashboard/reports');
  const period = page.getByRole('combobox', { name: 'Period' });
  await expect(period).toHaveText('Last 30 days', LOADED);
  // Charts first: a click while they draw on a busy machine can land before the menu is ready.
  await expect(page.getByTestId('reports-total').or(page.getByTestId('reports-empty'))).toBeVisible(LOADED);
  await period.click();
  await page.getByRole('option', { name: 'Last 7 days', exact: true }).click();
  await expect(page).toHaveURL(/[?&]period=last7(&|$)/);
  await page.reload();
  await expect(period).toHaveText('Last 7 days', LOADED);

  // The reports are asked for the link's days (the server's period is half-open: to = the day after).
  const asked = page.waitForRequest((r) => r.url().includes('/api/reports/') && r.url().includes('from=2026-01-05&to=2026-01-12'));
  await page.goto('/dashboard/reports?period=custom&first=2026-01-05&last=2026-01-11');
  await asked;
  await expect(period).toHaveText('Custom', LOADED);
  await expect(page.getByLabel('First day')).toHaveValue('2026-01-05');
  await expect(page.getByLabel('Last day')).toHaveValue('2026-01-11');

  await page.goto('/dashboard/reports?period=forever');
  await expect(period).toHaveText('Last 30 days', LOADED);
});
