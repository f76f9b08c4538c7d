import { expect, test, type Page } from './fixtures';
import { apiToken, closeCase, dispatchCase, signIn, locationApiPath } from './helpers';

// Only ambulances this file creates (and deletes) are dispatched or moved here: the trail it counts is the one it
// drew, whatever other files do to the demo fleet on the same server (TS09 EA 1002's last half hour is theirs too).
const run = Date.now().toString(36).slice(-5).toUpperCase();
const PLATE = `E2E LV ${run}`;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The patient, about 2.2 km south of where the ambulance starts. */
const PATIENT = { latitude: 17.4199, longitude: 78.4983 };
const START = { latitude: 17.4399, longitude: 78.4983 };

async function postPosition(page: Page, token: string, ambulanceId: number, p: { latitude: number; longitude: number; timestamp?: string }) {
  const res = await page.request.post(`/api/ambulances/${ambulanceId}/position`, { headers: auth(token), data: p });
  expect(res.ok(), await res.text()).toBeTruthy();
  return res.json() as Promise<{ ok: boolean; latest: boolean }>;
}

/** The patient's page does this: POST /api/location/{caseId}?t=…, no sign-in. */
async function sharePatient(page: Page, caseId: string, p: { latitude: number; longitude: number; accuracy: number }) {
  const res = await page.request.post(await locationApiPath(page, caseId), { data: p });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const etaMinutes = async (page: Page, scope: ReturnType<Page['getByTestId']>) => {
  const text = await scope.getByTestId('case-eta').textContent();
  const m = /^Arriving in about (\d+) min$/.exec(text ?? '');
  return m ? Number(m[1]) : NaN;
};

test('dispatchers see patients, trails, distances, ETAs and stale positions live', async ({ page, browser, defer }) => {
  test.setTimeout(120_000);
  const operator = await apiToken(page, 'operator');
  const admin = await apiToken(page, 'admin');
  // Created without a position (one given here would be stamped "now"): its trail is only the fixes posted below.
  const live = await page.request.post('/api/ambulances', { headers: auth(admin), data: { license_plate: PLATE, status: 'available' } });
  expect(live.status(), await live.text()).toBe(201);
  const ambulance: { id: number } = (await live.json()).ambulance;
  const patientName = `E2E Live Patient ${run}`;
  const caseId = await dispatchCase(page, operator, {
    to: `live.${run.toLowerCase()}@example.com`, patientName, description: 'Heart Attack', ambulanceId: ambulance.id,
  });
  // A fresh ambulance whose only fix is three minutes old: stale.
  const stalePlate = `E2E ST ${run}`;
  const created = await page.request.post('/api/ambulances', {
    // Created without a position (one given here would be stamped "now"): its first fix is the old one below.
    headers: auth(admin), data: { license_plate: stalePlate, status: 'available' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const staleId: number = (await created.json()).ambulance.id;

  defer(async () => {
    await closeCase(page, operator, caseId);
    for (const id of [staleId, ambulance.id]) await page.request.delete(`/api/ambulances/${id}`, { headers: auth(admin) });
  });
  const old = await postPosition(page, operator, staleId, {
    latitude: 17.4123, longitude: 78.4903, timestamp: new Date(Date.now() - 3 * 60_000).toISOString(),
  });
  expect(old.latest).toBe(true);
  // Two positions of the live ambulance, then the patient shares where they are.
  await postPosition(page, operator, ambulance.id, START);
  await postPosition(page, operator, ambulance.id, { latitude: 17.4349, longitude: 78.4983 });
  await sharePatient(page, caseId, { ...PATIENT, accuracy: 25 });

  await signIn(page, 'operator');
  await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });

  await test.step('the map shows the patient with an accuracy circle, and the stale ambulance', async () => {
    await page.getByRole('link', { name: 'Ambulance Map', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Ambulance Tracker' })).toBeVisible();
    const patientPin = page.locator(`.ll-patient-pin[title="Patient ${patientName}"]`);
    await expect(patientPin).toHaveCount(1);
    await expect(page.locator('path.ll-accuracy').first()).toBeAttached();

    const staleItem = page.getByTestId('map-list-item').filter({ hasText: stalePlate });
    await expect(staleItem).toContainText('Stale');
    await expect(staleItem).toHaveAttribute('data-stale', 'true');
    const liveItem = page.getByTestId('map-list-item').filter({ hasText: PLATE });
    await expect(liveItem).toHaveAttribute('data-stale', 'false');
    await expect(liveItem).not.toContainText('Stale');
    // The stale one is faded on the map; its popup says Stale.
    await staleItem.click();
    await expect(page.locator(`.ll-ambulance-pin[title="${stalePlate}"]`)).toHaveCSS('opacity', '0.45');
    const stalePopup = page.locator(`[data-testid="ambulance-popup"][data-ambulance-id="${staleId}"]`);
    await expect(stalePopup).toContainText(stalePlate);
    await expect(stalePopup).toContainText('Stale');
  });

  await test.step('selecting an ambulance draws its trail, extended live', async () => {
    await expect(page.locator('path.ll-trail')).toHaveCount(0);
    await page.getByTestId('map-list-item').filter({ hasText: PLATE }).click();
    // (The previous popup fades out for a moment: this one is picked by its ambulance.)
    const popup = page.locator(`[data-testid="ambulance-popup"][data-ambulance-id="${ambulance.id}"]`);
    await expect(popup).toContainText(PLATE);
    await expect(popup).not.toContainText('Stale');
    const trail = page.locator('path.ll-trail');
    await expect(trail).toHaveCount(1);
    // Leaflet draws "M x y L x y ...": one letter per point.
    const points = async () => ((await trail.getAttribute('d')) ?? '').match(/[ML]/g)?.length ?? 0;
    await expect.poll(points).toBe(2);
    await postPosition(page, operator, ambulance.id, { latitude: 17.4299, longitude: 78.4953 });
    await expect(popup).toContainText('Latitude: 17.429900', { timeout: 10_000 });
    await expect.poll(points).toBe(3);
  });

  await test.step('the patient popup shows the fix, and a re-shared location moves the marker', async () => {
    const item = page.getByTestId('map-patient-item').filter({ hasText: patientName });
    await expect(item).toContainText('±25 m');
    await item.click();
    const popup = page.getByTestId('patient-popup');
    await expect(popup).toContainText(patientName);
    await expect(popup).toContainText(`#${caseId.slice(0, 8)}`);
    await expect(popup).toContainText('17.4199, 78.4983'); // no geocoder here: the place text is the coordinates
    await expect(popup).toContainText('Latitude: 17.419900');
    await expect(popup).toContainText(/Last fix: \d/);
    await expect(popup).toContainText('±25 m');
    await expect(popup).not.toContainText('Stale');
    await expect(popup.getByTestId('case-eta')).toHaveText(/^Arriving in about \d+ min$/);

    const pin = page.locator(`.ll-patient-pin[title="Patient ${patientName}"]`);
    const where = await pin.getAttribute('style');
    await sharePatient(page, caseId, { latitude: 17.4189, longitude: 78.4993, accuracy: 15 });
    await expect(popup).toContainText('Latitude: 17.418900', { timeout: 10_000 });
    await expect(popup).toContainText('±15 m');
    await expect.poll(() => pin.getAttribute('style')).not.toBe(where);
    await expect(page.locator(`.ll-patient-pin[title="Patient ${patientName}"]`)).toHaveCount(1);
  });

  await test.step('the case card shows the distance and an ETA that shrinks live', async () => {
    await page.getByRole('link', { name: 'Cases', exact: true }).click();
    const card = page.getByTestId('case-card').filter({ hasText: patientName });
    await expect(card.getByTestId('case-distance')).toHaveText(new RegExp(`^${PLATE} is [\\d.]+ (km|m) away$`));
    await expect(card.getByTestId('case-eta')).toHaveText(/^Arriving in about \d+ min$/);
    await expect(card).toContainText('Estimate');
    await expect(card.getByTestId('case-accuracy')).toHaveText('±15 m');
    await expect(card.getByTestId('case-fix')).toHaveAttribute('data-stale', 'false');
    const far = await etaMinutes(page, card);
    expect(far).toBeGreaterThan(1);

    await postPosition(page, operator, ambulance.id, { latitude: 17.4209, longitude: 78.4990 });
    await expect.poll(() => etaMinutes(page, card), { timeout: 10_000 }).toBeLessThan(far);
    await expect(card.getByTestId('case-distance')).toHaveText(new RegExp(`^${PLATE} is \\d+ m away$`));

    // The All Cases table says the same.
    await page.getByRole('tab', { name: /All Cases/ }).click();
    const row = page.getByTestId('case-row').filter({ hasText: patientName });
    await expect(row.getByTestId('case-eta')).toHaveText('Arriving in about 1 min');
    await expect(row.getByTestId('case-accuracy')).toHaveText('±15 m');
  });

  await test.step('the fleet row shows the distance and ETA to the patient', async () => {
    await page.getByRole('link', { name: 'Ambulance Tracking', exact: true }).click();
    const row = page.getByTestId(`fleet-row-${ambulance.id}`);
    await expect(row.getByTestId('fleet-approach')).toContainText('To the patient');
    await expect(row.getByTestId('case-eta')).toHaveText('Arriving in about 1 min');
    await expect(row.getByTestId('case-distance')).toHaveText(/^\d+ m away$/);
  });

  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  await test.step("the Edit Case dialog lists available ambulances nearest to the patient first", async () => {
    const adminPage = await browser.newPage();
    defer(() => adminPage.close());
    await signIn(adminPage, 'admin');
    await adminPage.getByRole('navigation').getByRole('link', { name: 'All Cases' }).click();
    await adminPage.getByRole('button', { name: `Edit case of ${patientName}` }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Edit Case Information' });
    const select = dialog.getByRole('combobox', { name: 'Assigned Ambulance' });
    await expect(select).toHaveText(new RegExp(`^${PLATE} — \\d+ m \\(Currently assigned\\)$`));
    await select.click();
    const options = adminPage.getByRole('option');
    await expect(options.first()).toHaveText('Select an ambulance');
    const labels = await options.allTextContents();
    const ranked = labels.slice(1).filter((l) => l.includes(' — '));
    expect(ranked.length).toBeGreaterThan(2);
    // The held ambulance first; then the server's ranking: fresh positions before stale ones, among each the
    // units that can convey (no priority is asked here) before the cars that cannot, each by arrival.
    expect(ranked[0]).toMatch(new RegExp(`^${PLATE} — \\d+ m \\(Currently assigned\\)$`));
    const fleet = (await (await adminPage.request.get('/api/ambulances', { headers: auth(admin) })).json()).ambulances as { license_plate: string; can_transport: boolean }[];
    const conveys = new Map(fleet.map((a) => [a.license_plate, a.can_transport]));
    const free = ranked.slice(1).map((l) => ({
      stale: l.includes('position old'), car: conveys.get(l.split(' — ')[0]) === false, minutes: Number(/~(\d+) min/.exec(l)![1]),
    }));
    const order = (x: { stale: boolean; car: boolean; minutes: number }) => (x.stale ? 1e6 : 0) + (x.car ? 1e5 : 0) + x.minutes;
    expect(free.map(order)).toEqual(free.map(order).sort((a, b) => a - b));
    expect(ranked.some((l) => l.startsWith(`${stalePlate} — `))).toBe(true);
    await adminPage.keyboard.press('Escape');
  });
});
