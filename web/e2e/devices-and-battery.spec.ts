import { expect, test } from './fixtures';
import { apiToken, closeOpenCalls, freeAmbulance, locationApiPath, signIn } from './helpers';

// Issue 16: an admin gives an ambulance a device identity (shown once), a phone running Traccar
// Client sends a position with its battery, and the fleet table says so; a call whose patient's
// GPS lies far from the address given is flagged on the board. The ambulance is this spec's own
// and is deleted at the end, so no other spec's fleet changes.

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const run = Date.now().toString(36).slice(-5).toUpperCase();

test.afterEach(async ({ page }) => {
  await closeOpenCalls(page);
});

test('an admin issues a device id, a tracker reports a low battery, the fleet table shows it', async ({ page, defer }) => {
  const plate = `E2E DEV ${run}`;
  const admin = await apiToken(page, 'admin');
  const created = await page.request.post('/api/ambulances', { headers: auth(admin), data: { license_plate: plate } });
  expect(created.status(), await created.text()).toBe(201);
  const ambulanceId: number = (await created.json()).ambulance.id;

  defer(async () => {
    await page.request.delete(`/api/ambulances/${ambulanceId}`, { headers: auth(admin) });
  });
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Manage Ambulances' }).click();
  const row = page.getByRole('row').filter({ hasText: plate });
  await row.getByRole('button', { name: `Device identity for ambulance ${plate}` }).click();

  // First a confirmation that an earlier identity stops working.
  const dialog = page.getByRole('dialog', { name: `New device identity for ${plate}?` });
  await expect(dialog).toContainText('stops any earlier identity of this ambulance from working');
  await dialog.getByRole('button', { name: 'Issue device identity' }).click();

  // Then the id, once, with the set-up of both apps.
  const issued = page.getByRole('dialog', { name: `Device identity for ${plate}` });
  await expect(issued).toContainText('Shown only once');
  const deviceId = (await issued.getByTestId('device-id').textContent())?.trim() ?? '';
  expect(deviceId.length).toBeGreaterThanOrEqual(22); // at least 128 bits, however encoded
  await expect(issued.getByRole('button', { name: 'Copy device id' })).toBeFocused();
  await expect(issued.getByTestId('device-instructions-traccar')).not.toBeEmpty();
  await expect(issued.getByTestId('device-instructions-owntracks')).not.toBeEmpty();
  await issued.getByRole('button', { name: 'Done' }).click();
  await expect(issued).toBeHidden();
  // Opening it again never shows the same secret: it asks before issuing another.
  await row.getByRole('button', { name: `Device identity for ambulance ${plate}` }).click();
  await expect(page.getByRole('dialog', { name: `New device identity for ${plate}?` })).toBeVisible();
  await expect(page.getByText(deviceId)).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The phone (Traccar Client's OsmAnd protocol) reports a position with 15 % battery.
  const sent = await page.request.get(`/api/devices/osmand?id=${encodeURIComponent(deviceId)}&lat=17.4012&lon=78.4701&batt=15`);
  expect(sent.status(), await sent.text()).toBe(200);

  await signIn(page, 'operator');
  // Operators never see the action.
  await page.goto('/manage-ambulances');
  await expect(page.getByRole('row').filter({ hasText: plate })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Device identity for ambulance/ })).toHaveCount(0);

  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Ambulance Tracking', exact: true }).click();
  const fleetRow = page.getByTestId(`fleet-row-${ambulanceId}`);
  const battery = fleetRow.getByTestId('ambulance-battery');
  await expect(battery).toHaveText(/Battery 15%/);
  await expect(battery).toContainText('Low battery');
  await expect(battery).toHaveAttribute('data-low', 'true');
  await expect(fleetRow.getByTestId('ambulance-source')).toHaveText('via Traccar/OsmAnd');
  await fleetRow.scrollIntoViewIfNeeded();
  await fleetRow.screenshot({ path: '.tmp/fleet-battery.png' });
});

test("the board warns when the patient's GPS is far from the address given", async ({ page }) => {
  const operator = await apiToken(page, 'operator');
  const patientName = `Far Away ${run}`;
  // Only an active call takes the patient's fix.
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1007');
  const created = await page.request.post('/live-location', {
    headers: auth(operator),
    data: {
      to: 'far.away@example.com', status: 'active', license_plate: ambulance.id, patientName, description: 'Fall, Type: Other',
      intake_location: { latitude: 17.385, longitude: 78.4867, address: '5 Abids Road, Hyderabad', source: 'address' },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const caseId: string = (await created.json()).caseId;
  // The patient's phone, accurate to 10 m, about 6 km north-east of the address given.
  const shared = await page.request.post(await locationApiPath(page, caseId), { data: { latitude: 17.4399, longitude: 78.4983, accuracy: 10 } });
  expect(shared.ok(), await shared.text()).toBeTruthy();

  await signIn(page, 'operator', '/dashboard/cases');
  const card = page.locator(`[data-testid="case-card"][data-case-id="${caseId}"]`);
  await expect(card.getByTestId('case-intake-address')).toHaveText('Address given: 5 Abids Road, Hyderabad');
  const warning = card.getByTestId('case-location-mismatch');
  await expect(warning).toHaveText(/^Patient's GPS is \d+\.\d km from the address given$/);
  await expect(warning.locator('svg')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: '.tmp/board-mismatch.png' });
});
