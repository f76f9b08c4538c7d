import { expect, test, type Page } from './fixtures';
import { ambulanceByPlate, apiToken, closeCase, dispatchCase, signIn, locationPath } from './helpers';

// Only ambulances TS09 EA 1004, 1005 and 1006 are dispatched here; nothing relies on other spec files.

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

interface OutboxMessage { kind: string; case_id: string | null; to: string; links: string[] }

async function outbox(page: Page): Promise<OutboxMessage[]> {
  const res = await page.request.get('/api/outbox?limit=100', { headers: auth(await apiToken(page, 'admin')) });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).messages;
}

/** Dispatches `plate` through the API; resolves with the case and ambulance ids. */
async function dispatch(page: Page, plate: string, patientName: string) {
  const operator = await apiToken(page, 'operator');
  const ambulance = await ambulanceByPlate(page, operator, plate);
  const caseId = await dispatchCase(page, operator, {
    to: `${patientName.toLowerCase().replace(/\s+/g, '.')}@example.com`, patientName, description: 'Heart Attack', ambulanceId: ambulance.id,
  });
  return { operator, caseId, ambulanceId: ambulance.id };
}

test('Send Tracker on the fleet screen mails the patient and the driver', async ({ page }) => {
  const { caseId, ambulanceId } = await dispatch(page, 'TS09 EA 1004', 'Asha Rao');
  await signIn(page, 'operator');
  await page.getByRole('link', { name: 'Ambulance Tracking', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Ambulance Fleet Status' })).toBeVisible();

  const row = page.getByTestId(`fleet-row-${ambulanceId}`);
  await expect(row).toContainText('TS09 EA 1004');
  await expect(row).toContainText('Asha Rao');
  await expect(row).toContainText(caseId.slice(0, 8));
  await expect(row).toContainText('driver4@lifeline.test');
  // An ambulance without an active case cannot send a tracker.
  const idle = await ambulanceByPlate(page, await apiToken(page, 'operator'), 'TS09 EA 1008');
  await expect(page.getByTestId(`fleet-row-${idle.id}`).getByRole('button', { name: 'Send Tracker' })).toBeDisabled();

  // Filters: the dispatched ambulance is On Emergency, not Available.
  await page.getByRole('button', { name: /^On Emergency/ }).click();
  await expect(row).toBeVisible();
  await page.getByRole('button', { name: /^Available/ }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: /^All Ambulances/ }).click();

  await row.getByRole('button', { name: 'Send Tracker' }).click();
  await expect(page.getByText(/^Tracking emails sent successfully!.*TS09 EA 1004/)).toBeVisible();

  const mails = (await outbox(page)).filter((m) => m.case_id === caseId && m.kind.startsWith('tracking-'));
  // The crew's driver mail of the dispatch, then Send Tracker's two.
  expect(mails.map((m) => m.kind).sort()).toEqual(['tracking-driver', 'tracking-driver', 'tracking-patient']);
  expect(mails.find((m) => m.kind === 'tracking-patient')!.to).toBe('asha.rao@example.com');
  expect(mails.find((m) => m.kind === 'tracking-driver')!.to).toBe('driver4@lifeline.test');
});

test('the patient shares a location and the dispatcher sees it', async ({ page, browser }) => {
  const { caseId, operator } = await dispatch(page, 'TS09 EA 1005', 'Vikram Shah');
  const patientContext = await browser.newContext({ permissions: ['geolocation'], geolocation: { latitude: 17.4321, longitude: 78.4123, accuracy: 20 } });
  const patient = await patientContext.newPage();
  await patient.goto(await locationPath(page, caseId));
  await expect(patient.getByRole('heading', { name: 'Emergency Location Sharing' })).toBeVisible();
  await patient.getByRole('button', { name: 'Share My Location' }).click();
  await expect(patient.getByText('Your location has been shared successfully.')).toBeVisible();
  await expect(patient.getByText('Location shared successfully', { exact: true })).toBeVisible();
  const saved = await patient.evaluate((id) => JSON.parse(localStorage.getItem(id) ?? 'null'), caseId);
  expect(saved).toMatchObject({ latitude: 17.4321, longitude: 78.4123, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  // A saved location marks the page as shared on the next visit.
  await patient.reload();
  await expect(patient.getByText('Your location has been shared successfully.')).toBeVisible();

  // The dispatcher's board shows the shared location (no geocoder here: 'lat, lon').
  const cases = await page.request.get('/api/cases', { headers: auth(operator) });
  expect((await cases.json()).cases.find((c: { id: string }) => c.id === caseId)).toMatchObject({ latitude: 17.4321, longitude: 78.4123 });
  const dispatcher = await browser.newPage();
  await signIn(dispatcher, 'operator', '/dashboard/cases');
  await expect(dispatcher.getByText('17.4321, 78.4123').first()).toBeVisible();
  await dispatcher.close();

  // Once the case is closed the server refuses, and the page says why.
  await closeCase(page, operator, caseId);
  await patient.getByRole('button', { name: 'Share My Location' }).click();
  await expect(patient.getByText('This case is no longer active')).toBeVisible();
  await expect(patient.getByText('Failed to share location', { exact: true })).toBeVisible();

  // A stored copy that cannot be read is a critical error.
  await patient.evaluate((id) => localStorage.setItem(id, '{not json'), caseId);
  await patient.reload();
  await expect(patient.getByRole('heading', { name: 'Critical Error' })).toBeVisible();
  await expect(patient.getByText('Failed to check location status. Please try again.')).toBeVisible();
  await patientContext.close();
});

test('the patient page loads neither MUI nor Leaflet', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/location/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a');
  await expect(page.getByRole('button', { name: 'Share My Location' })).toBeVisible();
  const bodies = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
  for (const body of bodies) {
    expect(body).not.toContain('MuiButton');
    expect(body).not.toContain('leaflet-container');
  }
  // Unknown case: the server's answer is shown at load, and Share is off (location-link.spec.ts).
  await expect(page.getByText('Case not found')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share My Location' })).toBeDisabled();
});

test('the tracking link shows the ambulance and follows it live', async ({ page, browser }) => {
  const { operator, caseId, ambulanceId } = await dispatch(page, 'TS09 EA 1006', 'Meera Iyer');
  const sent = await page.request.post('/api/tracking/initiate', {
    headers: auth(operator), data: { caseId, ambulanceId, patientEmail: '', driverEmail: '' },
  });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  const mail = (await outbox(page)).find((m) => m.case_id === caseId && m.kind === 'tracking-patient');
  expect(mail?.links[0]).toContain(`/track/${ambulanceId}?t=`);
  const link = new URL(mail!.links[0]);

  const viewer = await browser.newPage();
  await viewer.goto(link.pathname + link.search);
  await expect(viewer.getByRole('heading', { name: 'Ambulance Tracking' })).toBeVisible();
  await expect(viewer.getByTestId('tracking-badge')).toHaveText('Live Tracking Active');
  const marker = viewer.locator('.leaflet-marker-icon');
  await expect(marker).toHaveCount(1);
  const position = viewer.getByTestId('tracking-position');
  await expect(position).toHaveAttribute('data-latitude', '17.385');
  await marker.click();
  await expect(viewer.locator('.leaflet-popup')).toContainText(`Ambulance #${ambulanceId}`);
  await expect(viewer.locator('.leaflet-popup')).toContainText('Last Updated');
  const before = await marker.getAttribute('style');

  // A new position arrives live: the marker moves without a reload.
  await viewer.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
  const moved = await page.request.post(`/api/ambulances/${ambulanceId}/position`, {
    headers: auth(operator), data: { latitude: 17.3912, longitude: 78.4931 },
  });
  expect(moved.ok(), await moved.text()).toBeTruthy();
  await expect(position).toHaveAttribute('data-latitude', '17.3912', { timeout: 10_000 });
  await expect(position).toHaveAttribute('data-longitude', '78.4931');
  await expect(position).toContainText('17.391200, 78.493100');
  await expect.poll(() => marker.getAttribute('style')).not.toBe(before);
  expect(await viewer.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  // A link that is not (or no longer) valid shows the server's error.
  await viewer.goto(`/track/${ambulanceId}?t=not-a-token`);
  await expect(viewer.getByTestId('tracking-error')).toContainText('Error:');
  await expect(viewer.getByTestId('tracking-error')).toContainText('Tracking link not found or expired');
  await expect(viewer.getByTestId('tracking-badge')).toHaveText('Tracking Inactive');
  // One toast for one error, however often the page learns of it (the socket's refusal refetches the link).
  await viewer.waitForTimeout(1500);
  await expect(viewer.getByText('Tracking link not found or expired', { exact: true })).toHaveCount(1);
  await viewer.close();
});

test('the ambulance map shows every located ambulance, as markers and in the list', async ({ page }) => {
  const operator = await apiToken(page, 'operator');
  const listed = (await (await page.request.get('/api/ambulances', { headers: auth(operator) })).json()).ambulances as { id: number; location: unknown }[];
  const located = listed.filter((a) => a.location).length;
  expect(located).toBeGreaterThanOrEqual(8);

  await signIn(page, 'operator');
  await page.getByRole('link', { name: 'Ambulance Map', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Ambulance Tracker' })).toBeVisible();
  const markers = page.locator('.ll-ambulance-pin');
  await expect(markers).toHaveCount(located);
  await expect(page.getByTestId('map-list-item')).toHaveCount(located);
  await expect(page.getByTestId('map-list-item').filter({ hasText: 'TS09 EA 1001' })).toBeVisible();
  // Bundled SVG pins only: no marker images.
  await expect(page.locator('img.leaflet-marker-icon')).toHaveCount(0);
  await expect(page.getByTestId('legend-available')).toBeVisible();
  await expect(page.getByTestId('legend-busy')).toBeVisible();

  // A list entry opens its popup; a new position moves it live, without a reload.
  const ambulance = await ambulanceByPlate(page, operator, 'TS09 EA 1004');
  await page.getByTestId('map-list-item').filter({ hasText: 'TS09 EA 1004' }).click();
  const popup = page.getByTestId('ambulance-popup');
  await expect(popup).toContainText('TS09 EA 1004');
  await expect(popup).toContainText(/Latitude: \d+\.\d{6}/);
  await expect(popup).toContainText('Last updated');
  await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
  const moved = await page.request.post(`/api/ambulances/${ambulance.id}/position`, {
    headers: auth(operator), data: { latitude: 17.4501, longitude: 78.3899 },
  });
  expect(moved.ok()).toBeTruthy();
  await expect(popup).toContainText('Latitude: 17.450100', { timeout: 10_000 });
  await expect(popup).toContainText('Longitude: 78.389900');
  await expect(markers).toHaveCount(located);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  // The stand-alone page is the same screen.
  await page.goto('/ambulance-map');
  await expect(page.getByRole('heading', { name: 'Ambulance Tracker' })).toBeVisible();
  await expect(page.locator('.ll-ambulance-pin')).toHaveCount(located);
});
