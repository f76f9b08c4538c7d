import { expect, test } from './fixtures';
import { apiToken, closeCase, dispatchCase, freeAmbulance, locationPath } from './helpers';

// Issue 13, item 4: the patient's location page tells at load that its link cannot share any
// more (case closed, or no such case), instead of offering a Share button that only fails
// once pressed. Nothing is pressed in these tests.

const run = Date.now().toString(36).toUpperCase();

test('a closed case: the location page says so at load, and Share is off', async ({ page }) => {
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1006');
  const caseId = await dispatchCase(page, operator, { to: `closed.${run.toLowerCase()}@example.com`, patientName: `Closed Link ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  const link = await locationPath(page, caseId);
  await closeCase(page, operator, caseId);

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Emergency Location Sharing' })).toBeVisible();
  const closed = page.getByTestId('location-closed');
  await expect(closed).toContainText('This case is closed. Location sharing has stopped.');
  await expect(closed).toContainText('This case is no longer active');
  const share = page.getByRole('button', { name: 'Share My Location' });
  await expect(share).toBeDisabled();
  await expect(share).toHaveAccessibleDescription(/This case is closed/);
  await page.screenshot({ path: '.tmp/location-closed.png', fullPage: true });
});

test('a wrong link or an unknown case: the page says Case not found at load, and Share is off', async ({ page }) => {
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1006');
  const caseId = await dispatchCase(page, operator, { to: `wrong.${run.toLowerCase()}@example.com`, patientName: `Wrong Link ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  for (const link of [`/location/${caseId}?t=${'x'.repeat(43)}`, '/location/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a']) {
    await page.goto(link);
    await expect(page.getByTestId('location-invalid')).toContainText('Case not found');
    await expect(page.getByRole('button', { name: 'Share My Location' })).toBeDisabled();
  }
  await page.screenshot({ path: '.tmp/location-invalid.png', fullPage: true });
  await closeCase(page, operator, caseId);
});

test('a live link: Share stays on, and a check that fails for another reason leaves it on', async ({ page }) => {
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1006');
  const caseId = await dispatchCase(page, operator, { to: `live.${run.toLowerCase()}@example.com`, patientName: `Live Link ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  const link = await locationPath(page, caseId);
  const checked = page.waitForResponse((r) => r.url().includes(`/api/location/${caseId}`) && r.request().method() === 'GET');
  await page.goto(link);
  expect((await checked).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Share My Location' })).toBeEnabled();

  await page.route(`**/api/location/${caseId}?*`, (route) => (route.request().method() === 'GET' ? route.fulfill({ status: 500, json: { error: 'boom' } }) : route.continue()));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Share My Location' })).toBeEnabled();
  await expect(page.getByTestId('location-closed')).toHaveCount(0);
  await expect(page.getByTestId('location-invalid')).toHaveCount(0);
  await closeCase(page, operator, caseId);
});

// Issue 25: the queue is honest to the patient. A waiting call (no ambulance yet) is mailed that help is
// being arranged, and its link shares while it waits: the page offers Share, says so, and shares.
test('a waiting call: the page says help is being arranged, Share is on and shares; once closed, Share is off', async ({ page, browser, defer }) => {
  const operator = await apiToken(page, 'operator');
  const created = await page.request.post('/live-location', {
    headers: { authorization: `Bearer ${operator}` },
    data: { to: `waiting.${run.toLowerCase()}@example.com`, status: 'pending', patientName: `Waiting Link ${run}`, description: 'Breathing problems' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { caseId, case: waiting } = await created.json();
  expect(waiting).toMatchObject({ status: 'pending', priority: 1, ambulance_id: null });
  const link = await locationPath(page, caseId);

  const patientContext = await browser.newContext({ permissions: ['geolocation'], geolocation: { latitude: 17.4012, longitude: 78.4713, accuracy: 15 } });
  defer(async () => {
    await patientContext.close();
  });
  const patient = await patientContext.newPage();
  const checked = patient.waitForResponse((r) => r.url().includes(`/api/location/${caseId}`) && r.request().method() === 'GET');
  await patient.goto(link);
  expect((await checked).status()).toBe(200);
  await expect(patient.getByRole('heading', { name: 'Emergency Location Sharing' })).toBeVisible();
  await expect(patient.getByTestId('location-waiting')).toHaveText(
    'Help is being arranged: an ambulance will be sent as soon as one is free. Share your location now so the nearest one can be sent to you.',
  );
  await expect(patient.getByTestId('location-closed')).toHaveCount(0);
  const share = patient.getByRole('button', { name: 'Share My Location' });
  await expect(share).toBeEnabled();
  await share.click();
  await expect(patient.getByText('Your location has been shared successfully.')).toBeVisible();
  await patient.screenshot({ path: '.tmp/location-waiting.png', fullPage: true });
  const shared = await page.request.get(`/api/cases/${caseId}`, { headers: { authorization: `Bearer ${operator}` } });
  expect((await shared.json()).case).toMatchObject({ status: 'pending', latitude: 17.4012, longitude: 78.4713 });

  await closeCase(page, operator, caseId);
  await patient.reload();
  await expect(patient.getByTestId('location-closed')).toContainText('This case is closed. Location sharing has stopped.');
  await expect(patient.getByTestId('location-waiting')).toHaveCount(0);
  await expect(patient.getByRole('button', { name: 'Share My Location' })).toBeDisabled();
});
