import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, chooseUnits, freeAmbulance, outboxLinks, signIn, trackRequests } from './helpers';

noOpenCallsAroundEachTest();

// Several units on one call (issue 29), from the crews' side and at scale: a P1 with a car and an
// ambulance worked from intake to clear on two driver pages, the response clock stopping at the car
// and the call staying open until its last unit clears; and a three-ambulance incident whose units
// are added at once from the card and all freed when the call is closed.

const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Sets a unit's capability (the demo fleet's own may change); answers how to put it back. */
async function withCapability(page: Page, admin: string, id: number, capability: string): Promise<() => Promise<void>> {
  const fleet = (await (await page.request.get('/api/ambulances', { headers: auth(admin) })).json()).ambulances as { id: number; capability: string }[];
  const was = fleet.find((a) => a.id === id)!.capability;
  const set = async (value: string) => {
    const res = await page.request.put(`/api/ambulances/${id}`, { headers: auth(admin), data: { capability: value } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  await set(capability);
  return () => set(was);
}

const caseNow = async (page: Page, token: string, id: string) =>
  (await (await page.request.get(`/api/cases/${id}`, { headers: auth(token) })).json()).case as {
    status: string; license_plate: string | null; assignments: { license_plate: string; status: string }[];
  };

test('a P1 with a car and an ambulance, from intake to clear on two driver pages', async ({ page, browser, defer }) => {
  test.setTimeout(120_000);
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const car = await freeAmbulance(page, token, 'TS09 EA 1008');
  const ambulance = await freeAmbulance(page, token, 'TS09 EA 1005');
  const restore = [await withCapability(page, admin, car.id, 'responder'), await withCapability(page, admin, ambulance.id, 'als')];
  const name = `Two Crews Kiran ${run}`;
  const phones = [await browser.newContext({ viewport: { width: 390, height: 844 } }), await browser.newContext({ viewport: { width: 390, height: 844 } })];
  defer(async () => {
    for (const p of phones) await p.close();
    for (const back of restore) await back();
  });
  // Intake: the car first (nearest), then the ambulance that can convey.
  const created = await page.request.post('/api/cases', {
    headers: auth(token), data: { email: `crews.${run.toLowerCase()}@example.com`, caseType: 'Cardiac arrest', patientName: name, ambulance_id: car.id, description: `Two crews ${run}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const caseId = (await created.json()).case.id as string;
  const added = await page.request.post(`/api/cases/${caseId}/assignments`, { headers: auth(token), data: { ambulance_id: ambulance.id } });
  expect(added.status(), await added.text()).toBe(201);

  // Each crew opens the driver link it was mailed.
  const links = await outboxLinks(page, caseId, 'tracking-driver');
  const linkOf = (id: number) => links.find((l) => l.startsWith(`/driver/${id}?t=`))!;
  const [carPage, ambulancePage] = [await phones[0].newPage(), await phones[1].newPage()];
  for (const p of [carPage, ambulancePage]) trackRequests(p);
  await carPage.goto(linkOf(car.id));
  await ambulancePage.goto(linkOf(ambulance.id));
  for (const p of [carPage, ambulancePage]) await expect(p.getByTestId('driver-priority')).toHaveText('P1 Life-threatening');
  const othersOf = (p: Page) => p.getByRole('region', { name: 'Other units on this call' }).getByTestId('driver-other-unit');
  await expect(othersOf(ambulancePage)).toContainText('TS09 EA 1008');

  // The board: both units; the clock runs until the first arrives (P1 stops at the first unit).
  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByPlaceholder('Search by patient, email, description...').fill(name);
  const card = page.getByRole('article', { name });
  await expect(card.getByTestId('call-unit')).toHaveCount(2);
  await expect(card.getByText('Since call', { exact: true })).toBeVisible();

  const next = (p: Page) => p.getByTestId('driver-next-step');
  for (const p of [carPage, ambulancePage]) {
    await expect(next(p)).toHaveText('En route');
    await next(p).click();
    await expect(p.getByTestId('driver-unit-status')).toHaveText('En route');
  }
  await expect(next(carPage)).toHaveText('On scene');
  await next(carPage).click();
  await expect(carPage.getByTestId('driver-unit-status')).toHaveText('On scene');
  // The car on scene stops a P1's clock; the ambulance's page sees the car there.
  await expect(card.getByText('Response', { exact: true })).toBeVisible();
  await expect(othersOf(ambulancePage).getByTestId('driver-other-unit-step')).toHaveText('On scene');
  await expectNoViolations(ambulancePage, 'the ambulance crew\'s page with the car on scene');

  // The ambulance arrives and conveys; the car is never offered transport and clears from the scene.
  for (const step of ['On scene', 'Transporting', 'At hospital']) {
    await expect(next(ambulancePage)).toHaveText(step);
    await next(ambulancePage).click();
    await expect(ambulancePage.getByTestId('driver-unit-status')).toHaveText(step);
  }
  await carPage.getByTestId('driver-skip-cleared').click();
  await carPage.getByTestId('driver-confirm-clear').click();
  await expect(carPage.getByTestId('driver-standby-ended')).toHaveText('Job done. This ambulance is clear of the call.', { timeout: 15_000 });
  // One unit clear, the other on: the call stays open, the ambulance now its primary.
  await expect.poll(async () => (await caseNow(page, token, caseId)).status).toBe('active');
  expect((await caseNow(page, token, caseId)).license_plate).toBe('TS09 EA 1005');
  await expect(card.getByTestId('call-unit-ended')).toContainText('TS09 EA 1008');
  // The hospital takes the patient (eTimes.12), then the crew clears.
  await expect(next(ambulancePage)).toHaveText('Handover complete');
  await next(ambulancePage).click();
  await expect(ambulancePage.getByTestId('driver-unit-status')).toHaveText('Handed over');
  await expect(next(ambulancePage)).toHaveText('Clear');

  await next(ambulancePage).click();
  await ambulancePage.getByTestId('driver-confirm-clear').click();
  await expect(ambulancePage.getByTestId('driver-standby-ended')).toHaveText('Job done. This ambulance is clear of the call.', { timeout: 15_000 });
  await expect.poll(async () => (await caseNow(page, token, caseId)).status).toBe('resolved');
  expect((await caseNow(page, token, caseId)).assignments.map((a) => a.status)).toEqual(['cleared', 'cleared']);
});

test('a three-ambulance incident: two more units added at once from the card, all freed when the call closes', async ({ page, defer }) => {
  // Three units set up, added, checked with axe and freed: a long walk for a loaded CI machine.
  test.slow();
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const plates = ['TS09 EA 1001', 'TS09 EA 1003', 'TS09 EA 1006'];
  const units = [];
  for (const plate of plates) units.push(await freeAmbulance(page, token, plate));
  const restore: (() => Promise<void>)[] = [];
  for (const u of units) restore.push(await withCapability(page, admin, u.id, 'als'));
  const name = `Pile-up Lakshmi ${run}`;
  defer(async () => {
    for (const back of restore) await back();
  });
  const created = await page.request.post('/api/cases', {
    headers: auth(token), data: { email: `pileup.${run.toLowerCase()}@example.com`, caseType: 'Accident', patientName: name, ambulance_id: units[0].id, description: `Three casualties ${run}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const caseId = (await created.json()).case.id as string;

  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByPlaceholder('Search by patient, email, description...').fill(name);
  const card = page.getByRole('article', { name });
  await expect(card.getByTestId('call-unit')).toHaveCount(1);
  await card.getByRole('button', { name: `Add unit to the call of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add units to the P2 call of ${name}` });
  await chooseUnits(dialog, plates.slice(1));
  await dialog.getByRole('button', { name: 'Add 2 units', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(card.getByTestId('call-unit')).toHaveCount(3);
  await expect(card.getByTestId('call-units-heading')).toHaveText('3 units on this call');
  for (const plate of plates) await expect(card.getByRole('button', { name: `Next: En route for ${plate}` })).toBeVisible();
  await expectNoViolations(page, 'a call with three units', { pointerAt: { x: 640, y: 600 } });
  await card.screenshot({ path: '.tmp/three-units-card.png' });

  // One crew's step from the board moves its unit alone.
  await card.getByRole('button', { name: `Next: En route for ${plates[1]}` }).click();
  await expect(card.getByTestId('call-unit').filter({ hasText: plates[1] }).getByTestId('unit-status-chip')).toHaveText('En route');
  await expect(card.getByTestId('call-unit').filter({ hasText: plates[2] }).getByTestId('unit-status-chip')).toHaveText('Dispatched');

  // Closing the call ends every unit on it (none reached the scene: cancelled) and frees them all.
  const closed = await page.request.put(`/api/cases/${caseId}`, { headers: auth(token), data: { status: 'closed' } });
  expect(closed.ok(), await closed.text()).toBeTruthy();
  expect((await caseNow(page, token, caseId)).assignments.map((a) => a.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  const fleet = (await (await page.request.get('/api/ambulances', { headers: auth(token) })).json()).ambulances as { id: number; status: string }[];
  expect(units.map((u) => fleet.find((a) => a.id === u.id)!.status)).toEqual(['available', 'available', 'available']);
});

test('a crew\'s request for backup is answered in one action from the notice, and a board opened later still shows it', async ({ page }) => {
  const token = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, token, 'TS09 EA 1002');
  const name = `Backup Later Divya ${run}`;
  const created = await page.request.post('/api/cases', {
    headers: auth(token), data: { email: `later.${run.toLowerCase()}@example.com`, caseType: 'Accident', patientName: name, ambulance_id: ambulance.id, description: `Backup later ${run}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const caseId = (await created.json()).case.id as string;
  // Asked before any board is open: the call carries the request.
  const asked = await page.request.post(`/api/ambulances/${ambulance.id}/backup`, { headers: auth(token), data: { note: 'trapped driver' } });
  expect(asked.ok(), await asked.text()).toBeTruthy();

  await signIn(page, 'operator', '/dashboard/cases');
  const notice = page.getByTestId('backup-alert').filter({ hasText: name });
  await expect(notice).toContainText(`by TS09 EA 1002: trapped driver`);
  const send = notice.getByRole('button', { name: new RegExp(`^Send (TS09 EA \\d+) to the P2 call of ${name}$`) });
  const plate = /^Send (TS09 EA \d+)/.exec((await send.textContent())!)![1];
  await send.click();
  await expect(notice).toHaveCount(0);
  await expect.poll(async () => (await caseNow(page, token, caseId)).assignments.map((a) => a.license_plate).sort()).toEqual(['TS09 EA 1002', plate].sort());
});
