import { expect, test, type Locator, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, chooseUnits, closeCase, freeAmbulance, recordTones, signIn, tones } from './helpers';

noOpenCallsAroundEachTest();

// Several units on one call (issue 29), the staff side: a unit added to a running call from its
// card, every unit listed with its capability in words, one stood down with a reason, and a crew's
// request for backup alerting the board with its one action, Add unit.

const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const CAR = 'TS09 EA 1008';
const AMBULANCE = 'TS09 EA 1003';

/** Sets a unit's capability as an admin would (the demo fleet's own may change); answers how to put it back. */
async function withCapability(page: Page, admin: string, id: number, capability: string): Promise<() => Promise<void>> {
  const before = await page.request.get('/api/ambulances', { headers: auth(admin) });
  const was = ((await before.json()).ambulances as { id: number; capability: string }[]).find((a) => a.id === id)!.capability;
  const res = await page.request.put(`/api/ambulances/${id}`, { headers: auth(admin), data: { capability } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return async () => {
    const back = await page.request.put(`/api/ambulances/${id}`, { headers: auth(admin), data: { capability: was } });
    expect(back.ok(), await back.text()).toBeTruthy();
  };
}

/** A running call with one unit, taken by another dispatcher (POST /api/cases). */
async function runningCall(page: Page, token: string, patientName: string, priority: number, ambulanceId: number): Promise<string> {
  const res = await page.request.post('/api/cases', {
    headers: auth(token),
    data: { email: `units.${run.toLowerCase()}@example.com`, caseType: 'Medical Emergency', patientName, priority, ambulance_id: ambulanceId, description: `Several units ${run}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).case.id;
}

const toast = (page: Page, text: string) => page.locator('.notistack-SnackbarContainer').getByText(text, { exact: true });

/** In the Add unit dialog, exactly `plate` ticked (the plan's units come ticked), then Add. */
async function addOnly(dialog: Locator, plate: string) {
  await chooseUnits(dialog, [plate]);
  await dialog.getByRole('button', { name: 'Add unit', exact: true }).click();
}

test('a unit added to a running call from its card, both listed with their capability, one stood down with a reason', async ({ page, defer }) => {
  // Three axe checks, each on a settled page: on a loaded machine (two workers) more than the default minute.
  test.setTimeout(120_000);
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, token, AMBULANCE);
  const car = await freeAmbulance(page, token, CAR);
  const restore = [await withCapability(page, admin, ambulance.id, 'als'), await withCapability(page, admin, car.id, 'responder')];
  const name = `Units Ravi ${run}`;
  const id = await runningCall(page, token, name, 1, ambulance.id);
  defer(async () => {
    await closeCase(page, token, id);
    for (const back of restore) await back();
  });
  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByPlaceholder('Search by patient, email, description...').fill(name);
  const card = page.getByRole('article', { name });
  const units = card.getByTestId('call-unit');
  await expect(units).toHaveCount(1);
  await expect(units.first()).toContainText(AMBULANCE);
  await expect(units.first().getByTestId('unit-capability')).toHaveText('ALS');
  await expect(card.getByTestId('unit-status-chip')).toHaveText('Dispatched');

  // Add unit: the ranked free units with their capability and need; the plan's reason on top.
  await card.getByRole('button', { name: `Add unit to the call of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add units to the P1 call of ${name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('P1 needs ALS or better. Free units, quickest first:')).toBeVisible();
  const carChoice = dialog.getByTestId('add-unit-choice').filter({ hasText: CAR });
  await expect(carChoice).toContainText('Car — cannot convey');
  await expect(carChoice).toContainText('Below the need');
  await expect(dialog.getByTestId('add-unit-plan')).toHaveText(/^Suggested: .+/);
  await expectNoViolations(page, 'the Add unit dialog', { pointerAt: { x: 640, y: 600 } });
  await dialog.screenshot({ path: '.tmp/several-units-add.png' });
  await addOnly(dialog, CAR);
  await expect(dialog).toBeHidden();
  await expect(toast(page, `${CAR} added to the P1 call of ${name}`)).toBeVisible();

  // Both units on the card, each with its capability in words and its own step.
  await expect(units).toHaveCount(2);
  await expect(card.getByTestId('call-units-heading')).toHaveText('2 units on this call');
  await expect(units.filter({ hasText: AMBULANCE }).getByTestId('unit-capability')).toHaveText('ALS');
  await expect(units.filter({ hasText: CAR }).getByTestId('unit-capability')).toHaveText('Car — cannot convey');
  await expect(units.filter({ hasText: CAR }).getByTestId('unit-status-chip')).toHaveText('Dispatched');
  await expect(card.getByRole('button', { name: `Next: En route for ${CAR}` })).toBeVisible();
  await expectNoViolations(page, 'a call with two units', { pointerAt: { x: 640, y: 600 } });
  await card.screenshot({ path: '.tmp/several-units-card.png' });

  // Stand the ambulance down: a reason is required; the car stays on the call.
  await card.getByRole('button', { name: `Stand down ${AMBULANCE}` }).click();
  const ask = page.getByRole('dialog', { name: `Stand down ${AMBULANCE}?` });
  await expect(ask).toContainText('The other units stay on the call.');
  await expect(ask.getByRole('textbox', { name: 'Reason' })).toBeFocused();
  await ask.getByRole('button', { name: 'Stand down' }).click();
  await expect(ask.getByText('Say why the unit is stood down')).toBeVisible();
  await expectNoViolations(page, 'the Stand down dialog, refused', { pointerAt: { x: 640, y: 600 } });
  await ask.getByRole('textbox', { name: 'Reason' }).fill('The car is closer; the ambulance takes the next call');
  await ask.getByRole('button', { name: 'Stand down' }).click();
  await expect(ask).toBeHidden();
  await expect(toast(page, `${AMBULANCE} stood down`)).toBeVisible();
  await expect(units).toHaveCount(1);
  await expect(units.first()).toContainText(CAR);
  await expect(card.getByTestId('call-unit-ended')).toHaveText(`${AMBULANCE} · ALS · Cancelled`);
  // Its button went with it: the focus stays with the call.
  await expect(card).toBeFocused();
  await expect(card).toHaveAttribute('data-status', 'active');

  // The reason is on the call's timeline (an admin's to read).
  const timeline = await page.request.get(`/api/cases/${id}/timeline`, { headers: auth(admin) });
  expect(timeline.ok(), await timeline.text()).toBeTruthy();
  const entries = (await timeline.json()).timeline as { action: string; after: Record<string, unknown> | null }[];
  expect(entries.find((e) => e.action === 'unit.cancelled')?.after).toMatchObject({ reason: 'The car is closer; the ambulance takes the next call' });
});

test('a crew asking for backup alerts the board at once, and its Add unit sends one', async ({ page, defer }) => {
  // The page's sounds, as alerts.spec records them: a request for backup rings like the other alerts.
  await recordTones(page);
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, token, AMBULANCE);
  const car = await freeAmbulance(page, token, CAR);
  const restore = [await withCapability(page, admin, car.id, 'responder')];
  const name = `Backup Asha ${run}`;
  const id = await runningCall(page, token, name, 2, ambulance.id);
  defer(async () => {
    await closeCase(page, token, id);
    for (const back of restore) await back();
  });
  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByPlaceholder('Search by patient, email, description...').fill(name);
  const card = page.getByRole('article', { name });
  await expect(card.getByTestId('call-unit')).toHaveCount(1);
  await expect(page.getByTestId('backup-alert')).toHaveCount(0);

  // The crew asks (as its driver page would; staff may ask for it too).
  const asked = await page.request.post(`/api/ambulances/${ambulance.id}/backup`, { headers: auth(token), data: { note: 'second patient' } });
  expect(asked.ok(), await asked.text()).toBeTruthy();

  const notice = page.getByTestId('backup-alert');
  await expect(notice).toHaveCount(1);
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText('Backup requested');
  await expect(notice).toContainText(`Backup asked for the P2 call of ${name} by ${AMBULANCE}: second patient`);
  await expect(card.getByTestId('card-backup')).toContainText(`Backup asked by ${AMBULANCE}: second patient`);
  // The one action: the unit ranked first for the call that meets its need (a P2 needs ALS: never the car).
  const send = notice.getByRole('button', { name: new RegExp(`^Send TS09 EA \\d+ to the P2 call of ${name}$`) });
  await expect(send).toBeVisible();
  await expect(send).not.toHaveAccessibleName(new RegExp(CAR));
  await expect.poll(async () => (await tones(page)).length).toBeGreaterThan(0);
  await expectNoViolations(page, 'the board with a request for backup', { pointerAt: { x: 640, y: 600 } });
  await page.screenshot({ path: '.tmp/several-units-backup.png' });

  // One action: Add unit on the notice opens the call's dialog.
  await notice.getByRole('button', { name: `Add unit to the P2 call of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add units to the P2 call of ${name}` });
  await expect(dialog).toBeVisible();
  await addOnly(dialog, CAR);
  await expect(dialog).toBeHidden();
  // Answered: the notice and the card's note go; the call has both units.
  await expect(notice).toHaveCount(0);
  await expect(card.getByTestId('card-backup')).toHaveCount(0);
  await expect(card.getByTestId('call-unit')).toHaveCount(2);
  await expect(card.getByTestId('call-unit').filter({ hasText: CAR }).getByTestId('unit-capability')).toHaveText('Car — cannot convey');
});

test('New Case: the plan for the priority preselects a car and the ambulance to convey, and sends both', async ({ page, defer }) => {
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const car = await freeAmbulance(page, token, CAR);
  const restore = [await withCapability(page, admin, car.id, 'responder')];
  // The car stands where the call is, far from every other unit: the quickest, though it cannot convey.
  const where = { latitude: 17.3, longitude: 78.3 };
  const before = ((await (await page.request.get('/api/ambulances', { headers: auth(token) })).json()).ambulances as { id: number; location: { latitude: number; longitude: number } | null }[])
    .find((a) => a.id === car.id)!.location;
  const moved = await page.request.post(`/api/ambulances/${car.id}/position`, { headers: auth(token), data: where });
  expect(moved.ok(), await moved.text()).toBeTruthy();
  defer(async () => {
    if (before) await page.request.post(`/api/ambulances/${car.id}/position`, { headers: auth(token), data: { latitude: before.latitude, longitude: before.longitude } });
    for (const back of restore) await back();
  });
  await page.setViewportSize({ width: 1280, height: 1200 });
  await signIn(page, 'operator', '/dashboard/new-case');
  const select = page.getByRole('combobox', { name: /Assign Ambulance/ });
  await expect(select).toBeEnabled();
  const box = page.getByRole('textbox', { name: 'Location' });
  await box.fill(`${where.latitude}, ${where.longitude}`);
  await box.press('Enter');
  await expect(page.getByTestId('intake-understood')).toContainText('from coordinates');
  const name = `Plan Meera ${run}`;
  await page.getByLabel('Patient Name').fill(name);
  await page.getByLabel('Email Address').fill(`plan.${run.toLowerCase()}@example.com`);
  await page.getByRole('combobox', { name: /Emergency Type/ }).click();
  await page.getByRole('option', { name: 'Cardiac arrest' }).click();
  await expect(page.getByRole('combobox', { name: /Priority/ })).toHaveText('1 — Life-threatening');

  // P1 needs ALS: the car first, and the quickest ALS ambulance ticked beside the plan's reason.
  await expect(page.getByTestId('dispatch-plan-reason')).toHaveText(new RegExp(`^Suggested: car ${CAR}, ~\\d+ min; ambulance TS09 EA \\d+, ~\\d+ min: send both$`));
  await expect(select).toHaveText(new RegExp(`^${CAR} — `));
  const also = page.getByRole('checkbox', { name: /^Also send / });
  await expect(also).toBeChecked();
  const partner = /Also send (TS09 EA \d+) · (ALS|CCT)/.exec((await page.getByTestId('dispatch-also-send').textContent())!)![1];
  await select.click();
  await expect(page.getByRole('option').filter({ hasText: CAR })).toContainText('Car — cannot convey');
  await page.keyboard.press('Escape');
  await expectNoViolations(page, 'New Case with a plan to send both', { pointerAt: { x: 640, y: 1100 } });
  await page.getByRole('region', { name: 'New Emergency Case' }).screenshot({ path: '.tmp/several-units-new-case.png' });

  await page.getByRole('button', { name: 'Dispatch Emergency' }).click();
  await expect(toast(page, 'Emergency case created and ambulance assigned successfully!')).toBeVisible();
  await expect(toast(page, `${partner} also sent to the call`)).toBeVisible();
  const link = page.getByTestId('share-link');
  await expect(link).toHaveText(/\/location\/[0-9a-f-]{36}\?t=/);
  const caseId = new URL((await link.textContent())!).pathname.split('/location/')[1];
  const res = await page.request.get(`/api/cases/${caseId}`, { headers: auth(token) });
  const created = (await res.json()).case as { license_plate: string; assignments: { license_plate: string; capability: string }[] };
  expect(created.assignments.map((a) => a.license_plate).sort()).toEqual([CAR, partner].sort());
  expect(created.assignments.find((a) => a.license_plate === CAR)?.capability).toBe('responder');
});
