import { expect, test, type Locator, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, closeCase, dispatchCase, freeAmbulance, outboxLinks, signIn, trackRequests } from './helpers';

noOpenCallsAroundEachTest();

// Issue 29, what people see: a unit's capability in words and an icon (Manage Ambulances, the
// fleet), and on the crew's phone the call's other units and a request for backup. Each test
// makes its own responder car and deletes it; of the seeded fleet only TS09 EA 1002 is dispatched.

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const run = Date.now().toString(36).slice(-5).toUpperCase();
const CAR = 'Car — cannot convey';

async function addAmbulance(page: Page, admin: string, body: { license_plate: string; capability?: string }): Promise<{ id: number; license_plate: string }> {
  const res = await page.request.post('/api/ambulances', { headers: auth(admin), data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).ambulance;
}

async function deleteAmbulance(page: Page, admin: string, id: number) {
  const res = await page.request.delete(`/api/ambulances/${id}`, { headers: auth(admin) });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** A row's button from the keyboard: the last step's toast may cover the table's last rows. */
async function press(button: Locator) {
  await button.focus();
  await button.press('Enter');
}

test('an admin makes a unit a responder car: Manage Ambulances and the fleet say "Car — cannot convey"', async ({ page, defer }) => {
  const admin = await apiToken(page, 'admin');
  const car = await addAmbulance(page, admin, { license_plate: `E2E RRC ${run}` });
  defer(async () => {
    await deleteAmbulance(page, admin, car.id);
  });
  await signIn(page, 'admin', '/admin-dashboard/ambulances');
  const row = page.getByRole('table', { name: 'Ambulances' }).getByRole('row').filter({ hasText: car.license_plate });
  await expect(row.getByTestId('unit-capability')).toHaveText('ALS');

  await press(row.getByRole('button', { name: `Edit ambulance ${car.license_plate}` }));
  const edit = page.getByRole('dialog', { name: 'Edit Ambulance' });
  const capability = edit.getByRole('combobox', { name: 'Capability' });
  await expect(capability).toHaveText('ALS');
  await expect(edit).toContainText('Ambulance, advanced life support');
  await capability.click();
  // Each choice in words with what it is.
  await expect(page.getByRole('option')).toHaveText([
    'ALSAmbulance, advanced life support', 'BLSAmbulance, basic life support', 'CCTAmbulance, critical care', `${CAR}Rapid response car: treats, cannot convey`,
  ]);
  await page.getByRole('option', { name: new RegExp(`^${CAR}`) }).click();
  await expect(capability).toHaveText(CAR);
  await expect(edit).toContainText('Rapid response car: treats, cannot convey');
  await expectNoViolations(page, 'the Edit Ambulance dialog with a responder chosen');
  await edit.getByRole('button', { name: 'Update Ambulance' }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByTestId('unit-capability')).toHaveText(CAR);
  await expect(row.getByTestId('unit-capability')).toHaveAttribute('data-capability', 'responder');
  await expect(row.getByTestId('unit-capability').locator('svg[data-icon="car"]')).toHaveCount(1);
  await expectNoViolations(page, 'Manage Ambulances with a responder car');

  const listed = await page.request.get('/api/ambulances', { headers: auth(admin) });
  const saved = (await listed.json()).ambulances.find((a: { id: number }) => a.id === car.id);
  expect(saved).toMatchObject({ capability: 'responder', can_transport: false });

  // The fleet (operators' screen) says the same, with the car's icon; the ambulances keep theirs.
  await signIn(page, 'operator', '/dashboard/ambulance-tracking');
  await expect(page.getByRole('heading', { name: 'Ambulance Fleet Status' })).toBeVisible();
  const chip = page.getByTestId(`fleet-row-${car.id}`).getByTestId('unit-capability');
  await expect(chip).toHaveText(CAR);
  await expect(chip.locator('svg[data-icon="car"]')).toHaveCount(1);
  await expect(page.getByTestId('unit-capability').filter({ hasText: /^ALS$/ }).first().locator('svg[data-icon="ambulance"]')).toHaveCount(1);
  await expectNoViolations(page, 'the fleet screen with a responder car');
});

test('the crew sees the other unit on its call, live, and asks for backup in two taps', async ({ page, browser, defer }) => {
  test.setTimeout(90_000);
  const operator = await apiToken(page, 'operator');
  const admin = await apiToken(page, 'admin');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1002');
  const car = await addAmbulance(page, admin, { license_plate: `E2E CAR ${run}`, capability: 'responder' });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  let caseId: string | undefined = undefined; // set below; the clean-up registered first reads it
  defer(async () => {
    await phone.close();
    if (caseId) await closeCase(page, operator, caseId);
    await deleteAmbulance(page, admin, car.id);
  });
  caseId = await dispatchCase(page, operator, { to: 'two.units@example.com', patientName: `E2E Two Units ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  const added = await page.request.post(`/api/cases/${caseId}/assignments`, { headers: auth(operator), data: { ambulance_id: car.id } });
  expect(added.status(), await added.text()).toBe(201);
  const sent = await page.request.post('/api/tracking/initiate', { headers: auth(operator), data: { caseId, ambulanceId: ambulance.id, patientEmail: '', driverEmail: '' } });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  const [link] = (await outboxLinks(page, caseId, 'tracking-driver')).filter((l) => l.startsWith(`/driver/${ambulance.id}?t=`));
  expect(link, 'the driver link of the first unit').toBeTruthy();

  const driver = await phone.newPage();
  trackRequests(driver);
  await driver.goto(link);
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('Dispatched');
  await expect(driver.getByTestId('driver-capability')).toContainText('ALS');
  const units = driver.getByRole('region', { name: 'Other units on this call' });
  const other = units.getByTestId('driver-other-unit');
  await expect(other).toHaveCount(1);
  await expect(other).toContainText(car.license_plate);
  await expect(other).toContainText(CAR);
  await expect(other.getByTestId('driver-other-unit-step')).toHaveText('Dispatched');

  // The car's step, pressed elsewhere, reaches this phone live.
  const step = await page.request.post(`/api/ambulances/${car.id}/unit-status`, { headers: auth(operator), data: { status: 'en_route' } });
  expect(step.ok(), await step.text()).toBeTruthy();
  await expect(other.getByTestId('driver-other-unit-step')).toHaveText('En route');

  // One tap opens the note and Send (nothing sent yet); Cancel goes back.
  await units.getByRole('button', { name: 'Request backup' }).click();
  await expect(units.getByRole('button', { name: 'Send backup request' })).toBeFocused();
  await units.getByRole('button', { name: 'Cancel' }).click();
  await expect(units.getByRole('button', { name: 'Request backup' })).toBeFocused();

  await units.getByRole('button', { name: 'Request backup' }).click();
  await units.getByLabel('What for? (optional)').fill('Second patient');
  await expectNoViolations(driver, 'the driver page asking for backup');
  await units.getByRole('button', { name: 'Send backup request' }).click();
  await expect(units.getByTestId('driver-backup-sent')).toContainText('Backup requested');
  await expect(units.getByRole('button', { name: 'Request backup' })).toBeVisible();
  await expectNoViolations(driver, 'the driver page after a backup request');

  // The call's timeline has it, with the note.
  const timeline = await page.request.get(`/api/cases/${caseId}/timeline`, { headers: auth(admin) });
  expect(timeline.ok()).toBeTruthy();
  const entries = (await timeline.json()).timeline as { action: string; after: { note?: string } | null }[];
  expect(entries.find((e) => e.action === 'backup.requested')?.after).toMatchObject({ note: 'Second patient' });
});
