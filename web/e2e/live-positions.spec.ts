import { expect, test, type Page } from './fixtures';
import { apiToken, closeCase, dispatchCase, freeAmbulance, outboxLinks, signIn, locationApiPath, locationPath } from './helpers';

// Only ambulances TS09 EA 1007 and 1008 are dispatched here; each test closes its case (freeing
// the ambulance) even when it fails, and frees the ambulance first if another run left it busy.

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Where the API says an ambulance is. */
async function apiPosition(page: Page, token: string, ambulanceId: number) {
  const res = await page.request.get('/api/ambulances', { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  const a = (await res.json()).ambulances.find((x: { id: number }) => x.id === ambulanceId);
  return a.location as { latitude: number; longitude: number; updated_at: string | null } | null;
}

test('the driver page moves the ambulance on the tracking page and the dispatcher\'s map, with the ETA shrinking; it stops when the case closes', async ({ page, browser, defer }) => {
  test.setTimeout(90_000);
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1008');
  const caseId = await dispatchCase(page, operator, { to: 'kiran.das@example.com', patientName: 'Kiran Das', description: 'Stroke', ambulanceId: ambulance.id });
  const contexts: import('@playwright/test').BrowserContext[] = [];
  defer(async () => {
    await freeAmbulance(page, operator, 'TS09 EA 1008');
    for (const c of contexts) await c.close();
  });
  // The ambulance starts at its base, whatever earlier tests did with it (staff may place it).
  const placed = await page.request.post(`/api/ambulances/${ambulance.id}/position`, { headers: auth(operator), data: { latitude: 17.3457, longitude: 78.5522 } });
  expect(placed.ok(), await placed.text()).toBeTruthy();
  // The patient has shared where they are; the dispatcher sends the tracker.
  const shared = await page.request.post(await locationApiPath(page, caseId), { data: { latitude: 17.39, longitude: 78.5, accuracy: 25 } });
  expect(shared.ok(), await shared.text()).toBeTruthy();
  const sent = await page.request.post('/api/tracking/initiate', { headers: auth(operator), data: { caseId, ambulanceId: ambulance.id, patientEmail: '', driverEmail: '' } });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  const [driverLink] = (await outboxLinks(page, caseId, 'tracking-driver')).filter((l) => l.startsWith('/driver/'));
  const [viewerLink] = (await outboxLinks(page, caseId, 'tracking-patient')).filter((l) => l.startsWith('/track/'));
  expect(driverLink).toContain(`/driver/${ambulance.id}?t=`);
  expect(viewerLink).toContain(`/track/${ambulance.id}?t=`);

  // The crew's phone: location allowed, standing where the ambulance is parked.
  const driverContext = await browser.newContext({ permissions: ['geolocation'], geolocation: { latitude: 17.3457, longitude: 78.5522, accuracy: 8 } });
  contexts.push(driverContext);
  const driver = await driverContext.newPage();
  await driver.goto(driverLink);
  await expect(driver.getByRole('heading', { name: 'Ambulance TS09 EA 1008' })).toBeVisible();
  await expect(driver.getByTestId('driver-patient')).toHaveText('Kiran Das');
  await expect(driver.getByTestId('driver-case')).toContainText('Stroke');
  await expect(driver.getByTestId('driver-patient-location')).toContainText('17.39000, 78.50000');
  await expect(driver.getByTestId('driver-distance')).toContainText('km');
  await driver.getByRole('button', { name: 'Start sharing location' }).click();
  await expect(driver.getByTestId('driver-status')).toHaveText('Sharing location');
  await expect(driver.getByTestId('driver-last-sent')).not.toHaveText('Not yet');
  await expect(driver.getByTestId('driver-accuracy')).toHaveText('±8 m');
  // A reload (the phone dropped the tab) carries on sharing without asking again.
  await driver.reload();
  await expect(driver.getByTestId('driver-status')).toHaveText('Sharing location');
  await expect(driver.getByTestId('driver-last-sent')).not.toHaveText('Not yet');

  // The patient watches on their tracking link: their own location, the trail, the ETA.
  const viewerContext = await browser.newContext();
  contexts.push(viewerContext);
  const viewer = await viewerContext.newPage();
  await viewer.goto(viewerLink);
  await expect(viewer.getByTestId('tracking-badge')).toHaveText('Live Tracking Active');
  await expect(viewer.locator('.ll-patient-pin')).toHaveCount(1);
  await expect(viewer.locator('path.ll-patient-accuracy')).toHaveCount(1);
  const eta = viewer.getByTestId('tracking-eta');
  await expect(eta).toContainText(/Arriving in about \d+ min/);
  const minutes = async () => Number(await eta.getAttribute('data-minutes'));
  const marker = viewer.locator(`.leaflet-marker-icon[title="Ambulance #${ambulance.id}"]`);
  await expect(marker).toHaveCount(1);

  // The dispatcher's Ambulance Map, with that ambulance's popup open.
  const dispatcherContext = await browser.newContext();
  contexts.push(dispatcherContext);
  const dispatcher = await dispatcherContext.newPage();
  await signIn(dispatcher, 'operator', '/dashboard/ambulance-map');
  await expect(dispatcher.getByRole('heading', { name: 'Ambulance Tracker' })).toBeVisible();
  await dispatcher.getByTestId('map-list-item').filter({ hasText: 'TS09 EA 1008' }).click();
  const popup = dispatcher.getByTestId('ambulance-popup');
  await expect(popup).toContainText('TS09 EA 1008');
  await dispatcher.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });

  // The ambulance drives towards the patient.
  let before = await minutes();
  expect(before).toBeGreaterThan(5);
  const route = [
    { latitude: 17.36, longitude: 78.535 },
    { latitude: 17.375, longitude: 78.517 },
    { latitude: 17.385, longitude: 78.506 },
  ];
  for (const step of route) {
    const style = await marker.getAttribute('style');
    await driverContext.setGeolocation({ ...step, accuracy: 6 });
    await expect(viewer.getByTestId('tracking-position')).toHaveAttribute('data-latitude', String(step.latitude), { timeout: 10_000 });
    await expect(viewer.getByTestId('tracking-position')).toHaveAttribute('data-longitude', String(step.longitude));
    await expect.poll(() => marker.getAttribute('style')).not.toBe(style);
    await expect.poll(minutes).toBeLessThan(before);
    before = await minutes();
    await expect(eta).toContainText(`Arriving in about ${before} min`);
    await expect(popup).toContainText(`Latitude: ${step.latitude.toFixed(6)}`, { timeout: 10_000 });
    await expect(popup).toContainText(`Longitude: ${step.longitude.toFixed(6)}`);
    await expect(driver.getByTestId('driver-accuracy')).toHaveText('±6 m');
  }
  // 0.8 km of straight line left: about 3 min with the road factor (the one estimate, contract/eta.ts).
  expect(before).toBeLessThanOrEqual(3);
  await expect(driver.getByTestId('driver-distance')).toContainText(/\d+ m/);
  // The trail is drawn, and the dispatcher's map was never reloaded.
  await expect(viewer.locator('path.ll-track-trail')).toHaveCount(1);
  expect(await dispatcher.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  const last = route[route.length - 1];
  expect(await apiPosition(page, operator, ambulance.id)).toMatchObject(last);

  // The case closes: the driver page says so and sends nothing more.
  await closeCase(page, operator, caseId);
  await expect(driver.getByTestId('driver-status')).toContainText('Location sharing has stopped.', { timeout: 10_000 });
  await expect(driver.getByRole('button', { name: 'Start sharing location' })).toHaveCount(0);
  await driverContext.setGeolocation({ latitude: 17.3895, longitude: 78.5005, accuracy: 5 });
  await driver.waitForTimeout(2000);
  expect(await apiPosition(page, operator, ambulance.id)).toMatchObject(last);
  expect(await driver.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('lifeline.driverQueue')))).toEqual([]);
});

test('the patient page keeps the dispatcher up to date while open, warns about a rough fix, and stops when the case closes', async ({ page, browser, defer }) => {
  test.setTimeout(90_000);
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1007');
  const caseId = await dispatchCase(page, operator, { to: 'nisha.rao@example.com', patientName: 'Nisha Rao', description: 'Injury', ambulanceId: ambulance.id });
  const contexts: import('@playwright/test').BrowserContext[] = [];
  defer(async () => {
    await freeAmbulance(page, operator, 'TS09 EA 1007');
    for (const c of contexts) await c.close();
  });
  const patientContext = await browser.newContext({ permissions: ['geolocation'], geolocation: { latitude: 17.4321, longitude: 78.4123, accuracy: 20 } });
  contexts.push(patientContext);
  const patient = await patientContext.newPage();
  const posts: string[] = [];
  patient.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes(`/api/location/${caseId}`)) posts.push(r.postData() ?? '');
  });
  await patient.goto(await locationPath(page, caseId));
  await patient.getByRole('button', { name: 'Share My Location' }).click();
  await expect(patient.getByText('Your location has been shared successfully.')).toBeVisible();
  await expect(patient.getByTestId('live-accuracy')).toHaveText('Accuracy: ±20 m');
  await expect(patient.getByTestId('live-updated')).toContainText(/Last update: \d/);
  await expect(patient.getByTestId('accuracy-warning')).toHaveCount(0);

  // The dispatcher's board, open (not reloaded) while the patient moves.
  const dispatcherContext = await browser.newContext();
  contexts.push(dispatcherContext);
  const dispatcher = await dispatcherContext.newPage();
  await signIn(dispatcher, 'operator', '/dashboard/cases');
  await expect(dispatcher.getByText('17.4321, 78.4123').first()).toBeVisible();
  await dispatcher.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });

  // A move of about 220 m goes at once (no need to wait for the 15 s resend).
  const sentBefore = posts.length;
  await patientContext.setGeolocation({ latitude: 17.4341, longitude: 78.4123, accuracy: 20 });
  await expect(dispatcher.getByText('17.4341, 78.4123').first()).toBeVisible({ timeout: 10_000 });
  expect(await dispatcher.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(posts.length).toBe(sentBefore + 1);
  expect(JSON.parse(posts.at(-1)!)).toMatchObject({ latitude: 17.4341, longitude: 78.4123, accuracy: 20 });
  await expect(patient.getByTestId('shared-detail')).toContainText('17.43410, 78.41230');

  // A move of a few metres is not sent; a rough fix is flagged.
  await patientContext.setGeolocation({ latitude: 17.43412, longitude: 78.4123, accuracy: 120 });
  await expect(patient.getByTestId('accuracy-warning')).toHaveText('Your location is approximate (±120 m). Move to an open area if you can.');
  await expect(patient.getByTestId('live-accuracy')).toHaveText('Accuracy: ±120 m');
  expect(posts.length).toBe(sentBefore + 1);

  // The case closes: the next update is refused, the page says so and stops.
  await closeCase(page, operator, caseId);
  await patientContext.setGeolocation({ latitude: 17.4361, longitude: 78.4123, accuracy: 15 });
  await expect(patient.getByTestId('location-closed')).toContainText('This case is closed. Location sharing has stopped.');
  await expect(patient.getByTestId('live-sharing')).toHaveCount(0);
  const afterClose = posts.length;
  await patientContext.setGeolocation({ latitude: 17.4381, longitude: 78.4123, accuracy: 15 });
  await patient.waitForTimeout(2000);
  expect(posts.length).toBe(afterClose);
});

test('the driver page loads neither MUI nor Leaflet, and a bad link says so', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/driver/8?t=not-a-token');
  await expect(page.getByTestId('driver-error')).toHaveText('Error: Tracking link not found or expired');
  await expect(page.getByRole('button', { name: 'Start sharing location' })).toHaveCount(0);
  const bodies = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
  for (const body of bodies) {
    expect(body).not.toContain('MuiButton');
    expect(body).not.toContain('leaflet-container');
  }
  await page.goto('/driver/8');
  await expect(page.getByTestId('driver-error')).toHaveText('Error: Tracking link not found or expired');
});
