import { expect as baseExpect, test, type Page } from './fixtures';
import { apiToken, signIn } from './helpers';

// Each test walks many pages of a screen; on a loaded 2-core machine a page's first answer took
// over the default 5 s (and a test over 30 s), so waits are longer here: they pass as soon as
// the state is there.
const expect = baseExpect.configure({ timeout: 15_000 });
test.beforeEach(() => test.slow());

// History from the server a page at a time (GET /api/cases?scope=all): the All Cases tab, the
// phone list and admin Case Management keep search, order and page in the URL.
const TAG = `Histprobe${Date.now() % 1_000_000}`;
const COUNT = 27; // a full page of 25 and a second of 2
const SEARCH = 'Search by patient, email, description...';

let ids: string[] = [];

/** 27 ended calls named "<TAG> Patient 01" … "27", made through the API (and closed, so the boards stay as they were). */
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const headers = { authorization: `Bearer ${await apiToken(page, 'operator')}` };
  ids = [];
  for (let i = 1; i <= COUNT; i += 1) {
    const n = String(i).padStart(2, '0');
    const res = await page.request.post('/api/cases', {
      headers,
      data: { patientName: `${TAG} Patient ${n}`, email: `hist.${n}@example.com`, description: `History probe ${n}`, caseType: 'Injury', status: 'pending' },
    });
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()).case as { id: string }).id;
    expect((await page.request.put(`/api/cases/${id}`, { headers, data: { status: 'closed' } })).ok()).toBeTruthy();
    ids.push(id);
  }
  await page.close();
});

const names = (page: Page, testId: string) => page.getByTestId(testId).getByText(new RegExp(`^${TAG} Patient \\d+$`)).allTextContents();
const label = (page: Page) => page.locator('.MuiTablePagination-displayedRows');

test('All Cases: an id prefix finds the call; pages forward and back by cursor; a reload and Back keep the page and search', async ({ page }) => {
  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByRole('tab', { name: /All Cases/ }).click();
  await expect(page).toHaveURL(/tab=all/);

  // The first 8 characters of an id, as the board shows them.
  const search = page.getByPlaceholder(SEARCH);
  await search.fill(ids[4].slice(0, 8));
  await expect(page.getByTestId('case-row')).toHaveCount(1);
  await expect(page.getByTestId('case-row')).toContainText(`${TAG} Patient 05`);

  // Every tagged call: 25 on the first page, newest first, the rest on the next.
  await search.fill(TAG);
  await expect(label(page)).toHaveText(`1–25 of ${COUNT}`);
  await expect(page.getByTestId('case-row')).toHaveCount(25);
  const first = await names(page, 'case-row');
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(label(page)).toHaveText(`26–27 of ${COUNT}`);
  await expect(page.getByTestId('case-row')).toHaveCount(2);
  const second = await names(page, 'case-row');
  expect(new Set([...first, ...second]).size).toBe(COUNT);
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByRole('button', { name: 'Go to next page' })).toBeDisabled();

  // A reload shows the same page of the same search.
  await page.reload();
  await expect(page.getByPlaceholder(SEARCH)).toHaveValue(TAG);
  await expect(label(page)).toHaveText(`26–27 of ${COUNT}`);
  expect(await names(page, 'case-row')).toEqual(second);

  // Previous, then the browser's Back returns to the second page.
  await page.getByRole('button', { name: 'Go to previous page' }).click();
  await expect(label(page)).toHaveText(`1–25 of ${COUNT}`);
  expect(await names(page, 'case-row')).toEqual(first);
  await page.goBack();
  await expect(label(page)).toHaveText(`26–27 of ${COUNT}`);
  expect(await names(page, 'case-row')).toEqual(second);

  // Sort: oldest first starts again on the first page, the very reverse of newest first.
  await page.getByRole('button', { name: 'Sort', exact: true }).click();
  await expect(page).toHaveURL(/order=asc/);
  await expect(label(page)).toHaveText(`1–25 of ${COUNT}`);
  await expect.poll(() => names(page, 'case-row')).toEqual([...second].reverse().concat([...first].reverse()).slice(0, 25));

  // Nothing matching: SPEC's two empty texts.
  await search.fill(`${TAG} no such call`);
  await expect(page.getByText('No cases found matching your search criteria')).toBeVisible();
  await expect(page.getByText('No cases found', { exact: true })).toBeVisible();
  await expect(page.getByText("Try adjusting your search or filters to find what you're looking for")).toBeVisible();
});

test('an open history page does not jump when a call changes: a banner offers the new page', async ({ page }) => {
  const headers = { authorization: `Bearer ${await apiToken(page, 'operator')}` };
  await signIn(page, 'operator', `/dashboard/cases?tab=all&q=${TAG}`);
  const row = page.getByTestId('case-row').filter({ hasText: `${TAG} Patient 27` });
  await expect(row).toContainText('History probe 27');
  await expect(page.getByTestId('history-changes')).toHaveCount(0);

  expect((await page.request.put(`/api/cases/${ids[26]}`, { headers, data: { description: 'History probe changed' } })).ok()).toBeTruthy();
  const banner = page.getByTestId('history-changes');
  await expect(banner).toHaveText(/^(\d+ new or changed calls?|New or changed calls) — show$/, { timeout: 10_000 });
  // The page stays as it was fetched until asked.
  await expect(row).toContainText('History probe 27');
  await banner.getByRole('button', { name: 'show' }).click();
  await expect(row).toContainText('History probe changed');
  await expect(banner).toHaveCount(0);
});

test('the phone list pages the same way', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'operator', `/dashboard/cases?tab=all&q=${TAG}`);
  const list = page.getByRole('list', { name: 'All cases' });
  await expect(list.getByRole('listitem')).toHaveCount(25);
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page.reload();
  await expect(page.getByRole('list', { name: 'All cases' }).getByRole('listitem')).toHaveCount(2);
});

test('admin Case Management: search, newest first, pages by cursor, reload and Back', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'All Cases' }).click();
  await expect(page.getByRole('heading', { name: 'Case Management' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Order: newest first/ })).toBeVisible();
  await page.getByPlaceholder(SEARCH).fill(TAG);
  const rows = page.getByTestId('admin-case-row');
  await expect(label(page)).toHaveText(`1–25 of ${COUNT}`);
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).toContainText(ids[26].slice(0, 8));

  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(label(page)).toHaveText(`26–27 of ${COUNT}`);
  await expect(rows).toHaveCount(2);
  await page.goBack();
  await expect(label(page)).toHaveText(`1–25 of ${COUNT}`);

  await page.getByRole('button', { name: /^Order: newest first/ }).click();
  await expect(page.getByRole('button', { name: /^Order: oldest first/ })).toBeVisible();
  await expect(rows.first()).toContainText(ids[0].slice(0, 8));
});
