import { expect, test, type Page } from './fixtures';
import { apiToken, signIn } from './helpers';

// Dispatches here use only the demo ambulances TS09 EA 1001, 1002 and 1003 (other specs use the others).

interface Ambulance { id: number; license_plate: string; status: string }

async function ambulanceByPlate(page: Page, token: string, plate: string): Promise<Ambulance> {
  const res = await page.request.get('/api/ambulances', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBeTruthy();
  const found = ((await res.json()).ambulances as Ambulance[]).find((a) => a.license_plate === plate);
  expect(found, `ambulance ${plate}`).toBeTruthy();
  return found!;
}

/** Picks an option of an MUI select by its label. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: new RegExp(label) }).click();
  await page.getByRole('option', { name: option }).click();
}

const tile = (page: Page, label: string) => page.getByTestId(`tile-${label.toLowerCase().replace(/\s+/g, '-')}`);
const tileValue = async (page: Page, label: string) => Number(await tile(page, label).textContent());

test('dispatch from the form: toast, share link, busy ambulance, and a second operator tab sees the case live', async ({ page, browser }) => {
  // A second, independent browser context already watching the board.
  const watcherContext = await browser.newContext();
  const watcher = await watcherContext.newPage();
  await signIn(watcher, 'operator', '/dashboard/cases');
  await expect(watcher.getByText('Loading emergency cases...')).toBeHidden();
  await expect(watcher.getByTestId('connection-indicator')).toHaveText('Live');
  await watcher.evaluate(() => { (window as any).__noReload = true; });

  await signIn(page, 'operator', '/dashboard/new-case');
  await page.getByLabel('Patient Name').fill('Meera Dispatchtest');
  await page.getByLabel('Email Address').fill('meera.dispatch@example.com');
  await choose(page, 'Emergency Type', 'Heart Attack');
  await expect(page.getByLabel('Description')).toHaveCount(0);
  await choose(page, 'Assign Ambulance', /TS09 EA 1001/);
  await page.getByRole('button', { name: 'Dispatch Emergency' }).click();

  await expect(page.getByText('Emergency case created and ambulance assigned successfully!')).toBeVisible();
  const link = page.getByTestId('share-link');
  await expect(link).toHaveText(/\/location\/[0-9a-f-]{36}\?t=[\w-]{43}$/);
  const shareLink = (await link.textContent())!;
  expect(shareLink.startsWith(new URL(page.url()).origin)).toBeTruthy();
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  // The form is reset and the taken ambulance is no longer offered.
  await expect(page.getByLabel('Patient Name')).toHaveValue('');
  await page.getByRole('combobox', { name: /Assign Ambulance/ }).click();
  await expect(page.getByRole('option', { name: /TS09 EA 1002/ })).toBeVisible();
  await expect(page.getByRole('option', { name: /TS09 EA 1001/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  const token = await apiToken(page, 'operator');
  expect((await ambulanceByPlate(page, token, 'TS09 EA 1001')).status).toBe('busy');
  const { pathname, search } = new URL(shareLink);
  const caseId = pathname.split('/location/')[1];
  const created = await page.request.get(`/api/cases/${caseId}`, { headers: { authorization: `Bearer ${token}` } });
  expect((await created.json()).case).toMatchObject({ patientName: 'Meera Dispatchtest', description: 'Heart Attack', caseType: 'Heart Attack', status: 'active' });

  // The other tab shows the new card without a reload.
  const card = watcher.getByRole('article', { name: 'Meera Dispatchtest' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('meera.dispatch@example.com');
  await expect(card).toContainText(`#${caseId.slice(0, 8)}`);
  await expect(card).toContainText('Location not specified');
  expect(await watcher.evaluate(() => (window as any).__noReload)).toBe(true);

  // The patient shares a location: the watcher's card shows the coordinates live.
  // With the link's own token, as the patient's page sends it.
  const shared = await page.request.post(`/api/location/${caseId}${search}`, { data: { latitude: 17.41, longitude: 78.45 } });
  expect(shared.ok()).toBeTruthy();
  await expect(card.getByTestId('case-location')).toHaveText('17.41, 78.45');
  await expect(card).toContainText('Last fix:');
  await watcherContext.close();
});

test('the form asks for every required field', async ({ page }) => {
  await signIn(page, 'operator', '/dashboard/new-case');
  await expect(page.getByRole('button', { name: 'Dispatch Emergency' })).toBeEnabled();
  await page.getByRole('button', { name: 'Dispatch Emergency' }).click();
  const warning = page.getByText('Please fill all required fields');
  await expect(warning).toBeVisible();
  await expect(warning).toHaveCount(0, { timeout: 10_000 }); // the toast closes by itself

  // A malformed e-mail and a missing description for Other fail the same way.
  await page.getByLabel('Patient Name').fill('Someone');
  await page.getByLabel('Email Address').fill('not-an-email');
  await choose(page, 'Emergency Type', 'Other');
  await expect(page.getByLabel('Description')).toBeVisible();
  await page.getByRole('combobox', { name: /Assign Ambulance/ }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Dispatch Emergency' }).click();
  await expect(warning).toBeVisible();
  await expect(page.getByLabel('Patient Name')).toHaveValue('Someone');
  expect(page.url()).toMatch(/\/dashboard\/new-case$/);
  await expect(page.getByTestId('share-link')).toHaveCount(0);
});

test('search filters the board and Sort toggles the creation-date order', async ({ page }) => {
  await signIn(page, 'operator');
  const token = await apiToken(page, 'operator');
  const headers = { authorization: `Bearer ${token}` };
  for (const who of ['Alpha', 'Beta']) {
    const res = await page.request.post('/api/cases', {
      headers,
      data: { patientName: `Sortprobe ${who}`, email: `${who.toLowerCase()}.probe@example.com`, description: `Probe case ${who}`, caseType: 'Fire' },
    });
    expect(res.ok()).toBeTruthy();
    await page.waitForTimeout(30);
  }

  await page.goto('/dashboard/cases');
  await expect(page.getByRole('tab', { name: /Emergency Cases/ })).toBeVisible();
  const search = page.getByPlaceholder('Search by patient, email, description...');
  const cards = page.getByTestId('case-card');
  const names = () => cards.getByRole('heading').allTextContents();

  await search.fill('SORTPROBE');
  await expect(cards).toHaveCount(2);
  expect(await names()).toEqual(['Sortprobe Alpha', 'Sortprobe Beta']); // board order: same priority, oldest call first
  const sort = page.getByRole('button', { name: 'Sort', exact: true });
  await sort.click();
  await expect.poll(names).toEqual(['Sortprobe Alpha', 'Sortprobe Beta']);
  await sort.click();
  await expect.poll(names).toEqual(['Sortprobe Beta', 'Sortprobe Alpha']);
  await sort.click();
  await expect.poll(names).toEqual(['Sortprobe Alpha', 'Sortprobe Beta']);

  // By e-mail and by description.
  await search.fill('beta.probe@');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Sortprobe Beta');
  await search.fill('probe case alpha');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Sortprobe Alpha');

  // The All Cases table follows the same search; nothing matching shows both empty texts.
  await page.getByRole('tab', { name: /All Cases/ }).click();
  await expect(page.getByTestId('case-row')).toHaveCount(1);
  for (const column of ['Case Info', 'Description', 'Emergency Type', 'Status', 'Date', 'Actions']) {
    await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  }
  await expect(page.getByTestId('case-row').first()).toContainText('Fire');
  await search.fill('no-such-case-anywhere');
  await expect(page.getByText('No cases found matching your search criteria')).toBeVisible();
  await expect(page.getByText('No cases found', { exact: true })).toBeVisible();
  await expect(page.getByText("Try adjusting your search or filters to find what you're looking for")).toBeVisible();

  // A case without a location cannot be opened on the map.
  await search.fill('sortprobe alpha');
  await page.getByRole('button', { name: 'Map', exact: true }).click();
  await expect(page.getByText('Location not available for this case')).toBeVisible();
});

test('the summary tiles follow a dispatch live', async ({ page }) => {
  await signIn(page, 'operator');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  for (const label of ['Create New Emergency Case', 'View Ambulance Map', 'Track Ambulances']) {
    await expect(page.getByRole('link', { name: new RegExp(label) })).toBeVisible();
  }
  await expect(tile(page, 'Total Fleet')).toBeVisible();
  const before = {
    active: await tileValue(page, 'Active Cases'),
    available: await tileValue(page, 'Available Ambulances'),
    busy: await tileValue(page, 'Busy Ambulances'),
    total: await tileValue(page, 'Total Fleet'),
  };
  await expect(page.getByTestId('fleet-utilization')).toHaveText(`${before.total ? Math.round((before.busy / before.total) * 100) : 0}%`);

  const token = await apiToken(page, 'operator');
  const ambulance = await ambulanceByPlate(page, token, 'TS09 EA 1002');
  expect(ambulance.status).toBe('available');
  const res = await page.request.post('/live-location', {
    headers: { authorization: `Bearer ${token}` },
    data: { to: 'tiles.probe@example.com', status: 'active', patientName: 'Tiles Probe', description: 'Stroke', caseType: 'Stroke', license_plate: ambulance.id },
  });
  expect(res.status()).toBe(201);

  await expect(tile(page, 'Active Cases')).toHaveText(String(before.active + 1));
  await expect(tile(page, 'Available Ambulances')).toHaveText(String(before.available - 1));
  await expect(tile(page, 'Busy Ambulances')).toHaveText(String(before.busy + 1));
  await expect(tile(page, 'Total Fleet')).toHaveText(String(before.total));
  await expect(page.getByTestId('fleet-in-service')).toHaveText(String(before.busy + 1));
  await expect(page.getByTestId('fleet-utilization')).toHaveText(`${Math.round(((before.busy + 1) / before.total) * 100)}%`);

  await page.getByRole('link', { name: /Create New Emergency Case/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/new-case$/);
});

test('an ambulance taken elsewhere drops out of the form while it is open', async ({ page }) => {
  await signIn(page, 'operator', '/dashboard/new-case');
  await page.getByRole('combobox', { name: /Assign Ambulance/ }).click();
  await expect(page.getByRole('option', { name: /TS09 EA 1003/ })).toBeVisible();
  await page.getByRole('option', { name: /TS09 EA 1003/ }).click();

  const token = await apiToken(page, 'operator');
  const ambulance = await ambulanceByPlate(page, token, 'TS09 EA 1003');
  const res = await page.request.post('/live-location', {
    headers: { authorization: `Bearer ${token}` },
    data: { to: 'elsewhere@example.com', status: 'active', patientName: 'Elsewhere', description: 'Injury', caseType: 'Injury', license_plate: ambulance.id },
  });
  expect(res.status()).toBe(201);

  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).not.toContainText('TS09 EA 1003');
  await page.getByRole('combobox', { name: /Assign Ambulance/ }).click();
  await expect(page.getByRole('option', { name: /TS09 EA 1003/ })).toHaveCount(0);
});

test('failures are worded as the spec says', async ({ page }) => {
  test.setTimeout(60_000); // failed reads are retried with backoff before they count as failures
  await signIn(page, 'operator');

  // The summary and the board when the cases cannot be read (the text is in the toast and in the screen's failure panel).
  await page.route('**/api/cases', (route) => route.fulfill({ status: 503, json: { error: 'down' } }));
  await page.goto('/dashboard/new-case');
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page.getByText('Failed to load dashboard data').first()).toBeVisible({ timeout: 10_000 });
  await page.getByRole('link', { name: 'Cases', exact: true }).click();
  await expect(page.getByText('Failed to fetch cases from database').first()).toBeVisible({ timeout: 10_000 });
  await page.unroute('**/api/cases');
  await page.route('**/api/cases', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('Failed to fetch cases', { exact: true }).first()).toBeVisible({ timeout: 10_000 });
  await page.unroute('**/api/cases');

  // Dispatch: the server's text (a 409 when the ambulance was taken meanwhile), an unreadable 500, no network.
  await page.getByRole('link', { name: 'New Case', exact: true }).click();
  await page.getByLabel('Patient Name').fill('Failure Probe');
  await page.getByLabel('Email Address').fill('failure.probe@example.com');
  await choose(page, 'Emergency Type', 'Injury');
  await page.getByRole('combobox', { name: /Assign Ambulance/ }).click();
  await page.getByRole('option').first().click();
  const submit = page.getByRole('button', { name: 'Dispatch Emergency' });
  for (const [answer, text] of [
    [{ status: 409, json: { error: 'Ambulance TS09 EA 9999 is not available; choose another ambulance' } }, 'Ambulance TS09 EA 9999 is not available; choose another ambulance'],
    [{ status: 500, body: '<html>oops</html>', contentType: 'text/html' }, 'Server error (500). Please check your input or try again later.'],
    [{ status: 422, body: '' }, 'Failed to create case or send email'],
    [null, 'Network or server error. Please try again later.'],
  ] as const) {
    await page.route('**/live-location', (route) => (answer ? route.fulfill(answer) : route.abort('connectionrefused')));
    await submit.click();
    await expect(page.getByText(text)).toBeVisible();
    await page.unroute('**/live-location');
  }
  // Nothing was reset: the operator can try again.
  await expect(page.getByLabel('Patient Name')).toHaveValue('Failure Probe');
  await expect(page.getByTestId('share-link')).toHaveCount(0);
});
