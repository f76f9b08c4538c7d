import { expect, test, type Page, type Request, type Route, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations as axeCheck } from './axe';
import { apiPath, apiToken, dispatchCase, locationPath, openAs, settled, signIn } from './helpers';

// A busy shift on the board (issue 25): no waiting call stranded (Assign on its card, reassignment
// from a less urgent call), alerts ordered, merged and gone once acted on, destructive steps focused
// on the safe choice, the board worked by keys alone, the map's and fleet's small lies, a patient
// page that learns its call ended, the device id that Escape does not lose, and axe on each.
// Every call is made here through the API; specs share one server, so each test starts and leaves
// with no open call.

test.describe.configure({ timeout: 90_000 });
noOpenCallsAroundEachTest();

const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const minAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const HYDERABAD = { latitude: 17.392, longitude: 78.481, address: 'Abids, Hyderabad', source: 'address' } as const;

interface Case { id: string; status: string; priority: number; ambulance_id: number | null; license_plate: string | null }
interface Unit { id: number; license_plate: string; unit_status: string }

/** A call taken by the admin (someone else than the operator on screen: it alerts). */
async function createCase(page: Page, token: string, data: Record<string, unknown>): Promise<Case> {
  const res = await page.request.post('/api/cases', {
    headers: auth(token),
    data: { to: `busy.${run.toLowerCase()}@example.com`, description: 'Injury', ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).case;
}

async function caseById(page: Page, token: string, id: string): Promise<Case> {
  const res = await page.request.get(`/api/cases/${id}`, { headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).case;
}

/** The free units, in id order (after closeOpenCalls every demo unit is free). */
async function freeUnits(page: Page, token: string): Promise<Unit[]> {
  const res = await page.request.get('/api/ambulances', { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()).ambulances as Unit[]).filter((a) => a.unit_status === 'available').sort((a, b) => a.id - b.id);
}

async function setUnitStatus(page: Page, token: string, ambulanceId: number, status: string) {
  const res = await page.request.post(`/api/ambulances/${ambulanceId}/unit-status`, { headers: auth(token), data: { status } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** POST /api/cases/{id}/dispatch as another dispatcher would. */
async function dispatchWaiting(page: Page, token: string, caseId: string, ambulanceId: number) {
  const res = await page.request.post(`/api/cases/${caseId}/dispatch`, { headers: { ...auth(token), 'idempotency-key': crypto.randomUUID() }, data: { ambulance_id: ambulanceId } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const card = (page: Page, id: string) => page.locator(`[data-testid="case-card"][data-case-id="${id}"]`);
const assignButton = (page: Page, id: string) => card(page, id).getByRole('button', { name: /^Assign an ambulance to the call of / });


/** axe on the settled page, the pointer moved off whatever it hovers unless `keepPointer`; `except` names requests held on purpose. */
function expectNoViolations(page: Page, what: string, opts: { except?: (url: string) => boolean; keepPointer?: boolean } = {}) {
  return axeCheck(page, what, { pointerAt: opts.keepPointer ? undefined : { x: 1, y: 1 }, ignore: opts.except && ((r: Request) => opts.except!(r.url())) });
}

/** Holds every request to `path` (a loading state under test) until the test ends; answers whether a URL is one of them. */
async function holdRequests(page: Page, path: string): Promise<(url: string) => boolean> {
  const held: Route[] = [];
  const matcher = apiPath(path);
  await page.route(matcher, (route) => { held.push(route); });
  return (url) => matcher.test(url);
}

test('a waiting call is never stranded: with the "is free" alert closed and the page reloaded, Assign on its card dispatches it, and the board is not fetched again', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const [unit] = await freeUnits(page, admin);
  await createCase(page, admin, { patientName: `Held ${run}`, priority: 3, ambulance_id: unit.id });
  const name = `Stranded ${run}`;
  const waiting = await createCase(page, admin, { status: 'pending', priority: 2, patientName: name, description: 'Stroke', intake_location: HYDERABAD });

  await signIn(page, 'operator', '/dashboard/cases');
  await expect(card(page, waiting.id)).toContainText('Waiting for an ambulance');

  // The other call's crew clears: an ambulance is free while the call waits.
  await setUnitStatus(page, admin, unit.id, 'cleared');
  const alert = page.getByTestId('unit-free-alert');
  await expect(alert).toContainText(`${unit.license_plate} is free — 1 call waiting, oldest P2`);
  await alert.getByRole('button', { name: 'Close' }).click();
  await expect(alert).toHaveCount(0);
  await page.reload();
  await expect(card(page, waiting.id)).toContainText('Waiting for an ambulance');
  await expect(page.getByTestId('unit-free-alert')).toHaveCount(0);

  // Still one action on the card: Assign, the quickest first and focused, Enter sends it.
  const boardFetches: string[] = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/cases') boardFetches.push(r.method()); });
  await assignButton(page, waiting.id).click();
  const menu = page.getByRole('menu', { name: `Ambulances for the call of ${name}` });
  const first = menu.getByTestId('assign-free').first();
  await expect(first).toBeFocused();
  await expect(first).toContainText(/ km, ~\d+ min|\d+ m, ~\d+ min/);
  const plate = (await first.locator('.MuiListItemText-primary').textContent())!.trim();
  await page.screenshot({ path: '.tmp/busy-shift-assign-menu.png' });
  await page.keyboard.press('Enter');

  await expect(card(page, waiting.id)).toHaveAttribute('data-status', 'active');
  await expect(card(page, waiting.id).getByTestId('unit-line')).toContainText(plate);
  // The focus stays with the call: on its next step.
  await expect(card(page, waiting.id).getByRole('button', { name: `Next: En route for ${plate}` })).toBeFocused();
  await expect(page.getByText(`${plate} dispatched to the P2 call of ${name}`)).toBeVisible();
  expect(boardFetches, 'the answer updates the board: no list is fetched again').toEqual([]);
  expect(await caseById(page, admin, waiting.id)).toMatchObject({ status: 'active', license_plate: plate });
});

test('reassignment: a waiting P1 takes a P4\'s unit after a confirmation focused on Cancel; the P4 waits again, with Assign', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const [unit] = await freeUnits(page, admin);
  const routine = `Routine ${run}`;
  const arrest = `Arrest ${run}`;
  const p4 = await createCase(page, admin, { patientName: routine, priority: 4, ambulance_id: unit.id, intake_location: HYDERABAD });
  const p1 = await createCase(page, admin, { status: 'pending', priority: 1, patientName: arrest, description: 'Heart Attack', intake_location: HYDERABAD });

  await signIn(page, 'operator', '/dashboard/cases');
  await assignButton(page, p1.id).click();
  const menu = page.getByRole('menu', { name: `Ambulances for the call of ${arrest}` });
  await expect(menu.getByText('Take from a lower-priority call')).toBeVisible();
  const take = menu.getByTestId('assign-divert').filter({ hasText: unit.license_plate });
  await expect(take).toContainText('On a P4 call, dispatched');
  await expectNoViolations(page, 'the Assign menu with a unit to take');
  await take.click();

  const dialog = page.getByRole('dialog', { name: `Take ${unit.license_plate} from the P4 call?` });
  await expect(dialog).toContainText(`The P4 call of ${routine} goes back to the queue`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.screenshot({ path: '.tmp/busy-shift-take-confirm.png' });
  // Enter on the focused choice cancels: nothing is taken, and the focus is back on Assign.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(assignButton(page, p1.id)).toBeFocused();
  expect((await caseById(page, admin, p4.id)).ambulance_id).toBe(unit.id);

  await assignButton(page, p1.id).click();
  await menu.getByTestId('assign-divert').filter({ hasText: unit.license_plate }).click();
  await dialog.getByRole('button', { name: `Take ${unit.license_plate}` }).click();

  await expect(card(page, p1.id)).toHaveAttribute('data-status', 'active');
  await expect(card(page, p1.id).getByTestId('unit-line')).toContainText(unit.license_plate);
  await expect(card(page, p4.id)).toHaveAttribute('data-status', 'pending');
  await expect(card(page, p4.id)).toContainText('Waiting for an ambulance');
  await expect(assignButton(page, p4.id)).toBeVisible();
  await expect(page.getByText(`${unit.license_plate} dispatched to the P1 call of ${arrest}; the P4 call of ${routine} is waiting again`)).toBeVisible();
  expect(await caseById(page, admin, p1.id)).toMatchObject({ status: 'active', ambulance_id: unit.id });
  expect(await caseById(page, admin, p4.id)).toMatchObject({ status: 'pending', ambulance_id: null });
  await page.screenshot({ path: '.tmp/busy-shift-reassigned.png', fullPage: true });
});

test('a unit taken meanwhile by another dispatcher: Assign shows the server\'s refusal and the call still waits, with Assign', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const name = `Raced ${run}`;
  const waiting = await createCase(page, admin, { status: 'pending', priority: 2, patientName: name, intake_location: HYDERABAD });
  await signIn(page, 'operator', '/dashboard/cases');
  await assignButton(page, waiting.id).click();
  const first = page.getByRole('menu', { name: `Ambulances for the call of ${name}` }).getByTestId('assign-free').first();
  await expect(first).toBeFocused();
  const plate = (await first.locator('.MuiListItemText-primary').textContent())!.trim();
  // Another dispatcher sends that unit to another call first.
  const unit = (await freeUnits(page, admin)).find((u) => u.license_plate === plate)!;
  await createCase(page, admin, { patientName: `Other ${run}`, priority: 3, ambulance_id: unit.id });
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Ambulance ${plate} is not available; choose another ambulance`, { exact: true })).toBeVisible();
  await expect(card(page, waiting.id)).toHaveAttribute('data-status', 'pending');
  await expect(assignButton(page, waiting.id)).toBeFocused();
  // The board and fleet were asked again (a 409): the unit is no longer offered.
  await assignButton(page, waiting.id).click();
  await expect(page.getByRole('menu').getByTestId('assign-free').first()).toBeFocused();
  await expect(page.getByRole('menu').getByTestId('assign-free').filter({ hasText: plate })).toHaveCount(0);
});

test('alerts: the waiting calls in one notice on top, most urgent first, the rest one press away, and gone once acted on', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const units = await freeUnits(page, admin);
  await signIn(page, 'operator', '/dashboard/cases');
  // The board has loaded (what it held then never alerts): the calls below come after.
  await expect(page.getByText('No active emergency cases', { exact: true })).toBeVisible();
  await settled(page);
  await expect(page.getByTestId('call-alert')).toHaveCount(0);

  // Three running calls taken by someone else (news), then three waiting ones.
  for (const [i, priority] of [2, 3, 4].entries()) {
    await createCase(page, admin, { patientName: `News P${priority} ${run}`, priority, ambulance_id: units[i].id });
  }
  const p3 = await createCase(page, admin, { status: 'pending', priority: 3, patientName: `Wait P3 ${run}`, call_received_at: minAgo(2) });
  const p1 = await createCase(page, admin, { status: 'pending', priority: 1, patientName: `Wait P1 ${run}`, description: 'Stroke', call_received_at: minAgo(4.2) });
  const p2 = await createCase(page, admin, { status: 'pending', priority: 2, patientName: `Wait P2 ${run}`, call_received_at: minAgo(1.5) });

  const notices = page.getByTestId('call-alert');
  // Four notices: three show, the fourth (P4 news) is said, not dropped.
  await expect(notices).toHaveCount(3);
  await expect(notices.first()).toHaveText('3 calls waiting, oldest P1 4 min');
  await expect(notices.first()).toHaveAttribute('data-kind', 'waiting');
  expect(await notices.evaluateAll((els) => els.map((e) => e.getAttribute('data-priority')))).toEqual(['1', '2', '3']);
  await expect(notices.nth(1)).toContainText(`New P2 call (Emergency): Injury — News P2 ${run}`);
  const more = page.getByTestId('call-alerts-more');
  await expect(more).toHaveText('1 more alert: P4');
  const region = page.getByRole('region', { name: 'Alerts' });
  const box = await region.boundingBox();
  expect(box!.height, 'the alerts stay compact').toBeLessThan(260);
  await page.screenshot({ path: '.tmp/busy-shift-alerts.png' });
  await expectNoViolations(page, 'the board with merged alerts');
  await more.click();
  await expect(notices).toHaveCount(4);
  await expect(notices.nth(3)).toContainText(`News P4 ${run}`);
  expect((await region.boundingBox())!.height).toBeLessThanOrEqual(page.viewportSize()!.height / 2 + 1);
  await page.getByRole('button', { name: 'Show fewer alerts' }).click();

  // Acting on the P1 (Assign on its card) takes it out of the notice.
  await assignButton(page, p1.id).click();
  await expect(page.getByRole('menu').getByTestId('assign-free').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card(page, p1.id)).toHaveAttribute('data-status', 'active');
  await expect(notices.first()).toHaveText(/^2 calls waiting, oldest P2 \d+ min$/);
  await expect(notices.first()).toHaveAttribute('data-priority', '2');

  // The others dispatched elsewhere: the waiting notice is gone, the news stays.
  const left = await freeUnits(page, admin);
  await dispatchWaiting(page, admin, p2.id, left[0].id);
  await dispatchWaiting(page, admin, p3.id, left[1].id);
  await expect(page.locator('[data-testid="call-alert"][data-kind="waiting"]')).toHaveCount(0);
  await expect(notices).toHaveCount(3);
  await expect(more).toHaveCount(0);
});

test('Clear asks with the focus on Cancel: Enter twice does not clear a unit; n and Tab then Enter does, and the focus goes to the next call', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const [unit, other] = await freeUnits(page, admin);
  const first = await createCase(page, admin, { patientName: `Clear ${run}`, priority: 2, ambulance_id: unit.id });
  const second = await createCase(page, admin, { patientName: `Stays ${run}`, priority: 3, ambulance_id: other.id });
  for (const s of ['en_route', 'on_scene', 'transporting', 'at_hospital', 'handover']) await setUnitStatus(page, admin, unit.id, s);

  await signIn(page, 'operator', '/dashboard/cases');
  const clear = card(page, first.id).getByRole('button', { name: `Clear for ${unit.license_plate}` });
  await clear.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Clear ${unit.license_plate}?` });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.screenshot({ path: '.tmp/busy-shift-clear-confirm.png' });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(clear).toBeFocused();
  await settled(page); // a Clear sent by mistake would be answered by now
  expect((await caseById(page, admin, first.id)).status).toBe('active');
  await expect(card(page, first.id).getByTestId('unit-status-chip')).toHaveText('Handed over');

  // By the board's keys: the call focused, n asks, Tab to Clear, Enter clears.
  await page.keyboard.press('Escape');
  await card(page, first.id).focus();
  await page.keyboard.press('n');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Clear' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card(page, first.id)).toHaveCount(0);
  await expect(card(page, second.id)).toBeFocused();
  expect((await caseById(page, admin, first.id)).status).toBe('resolved');
});

test('the board by keys alone: j/k between calls, n the next step, a Assign, ? the list of keys; never while typing', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  const [unit] = await freeUnits(page, admin);
  const waiting = await createCase(page, admin, { status: 'pending', priority: 1, patientName: `Keys Wait ${run}`, description: 'Stroke', intake_location: HYDERABAD });
  const running = await createCase(page, admin, { patientName: `Keys Run ${run}`, priority: 2, ambulance_id: unit.id });

  await signIn(page, 'operator', '/dashboard/cases');
  await expect(card(page, running.id)).toBeVisible();

  // Typing in the search box is typing.
  const search = page.getByPlaceholder('Search by patient, email, description...');
  await search.focus();
  await page.keyboard.type('jk');
  await expect(search).toHaveValue('jk');
  await expect(search).toBeFocused();
  await search.fill('');

  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('j');
  await expect(card(page, waiting.id)).toBeFocused();
  await page.screenshot({ path: '.tmp/busy-shift-keys-focus.png' });
  await page.keyboard.press('j');
  await expect(card(page, running.id)).toBeFocused();
  await page.keyboard.press('n');
  await expect(card(page, running.id).getByTestId('unit-status-chip')).toHaveText('En route');
  await expect(card(page, running.id)).toBeFocused();
  await page.keyboard.press('k');
  await expect(card(page, waiting.id)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(card(page, running.id)).toBeFocused();

  // a: Assign on the waiting call (the only one), its quickest unit focused; Enter sends it.
  await page.keyboard.press('a');
  const first = page.getByRole('menu', { name: `Ambulances for the call of Keys Wait ${run}` }).getByTestId('assign-free').first();
  await expect(first).toBeFocused();
  const plate = (await first.locator('.MuiListItemText-primary').textContent())!.trim();
  await page.keyboard.press('Enter');
  await expect(card(page, waiting.id)).toHaveAttribute('data-status', 'active');
  await expect(card(page, waiting.id).getByRole('button', { name: `Next: En route for ${plate}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card(page, waiting.id).getByTestId('unit-status-chip')).toHaveText('En route');

  // ?: the keys, listed; Escape closes the list and the focus comes back.
  await page.keyboard.press('?');
  const keys = page.getByRole('dialog', { name: 'Board keys' });
  await expect(keys).toBeVisible();
  for (const text of ['Next call', 'Previous call', 'Next step of the focused call', 'Assign an ambulance']) await expect(keys).toContainText(text);
  await page.screenshot({ path: '.tmp/busy-shift-keys.png' });
  await expectNoViolations(page, 'the list of board keys');
  await page.keyboard.press('Escape');
  await expect(keys).toBeHidden();
  await expect(card(page, waiting.id).getByRole('button', { name: /^Next: On scene for / })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts (?)' })).toBeVisible();
});

test('the map says which calls share a position and keeps its list at 1366×800; the fleet says Available once', async ({ page }) => {
  const admin = await apiToken(page, 'admin');
  // Four running calls placed where the phone call said, none shared by the patient.
  for (let i = 0; i < 4; i++) {
    await createCase(page, admin, { patientName: `Placed ${i} ${run}`, priority: 3, intake_location: { ...HYDERABAD, latitude: HYDERABAD.latitude + i * 0.003 } });
  }
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, 'operator', '/dashboard/ambulance-map');
  const subtitle = page.getByTestId('map-subtitle');
  await expect(subtitle).toContainText('4 calls on the map, no patient sharing a location');
  await expect(subtitle).not.toContainText('patients sharing');
  const patients = page.getByTestId('map-patient-item');
  await expect(patients).toHaveCount(4);
  for (const text of await patients.getByTestId('map-patient-fix').allTextContents()) expect(text).toBe('Not shared: the place given on the call');
  const list = page.getByTestId('map-ambulance-list');
  await expect(page.getByTestId('map-list-item').first()).toBeVisible();
  expect((await list.boundingBox())!.height, 'the ambulance list keeps its height').toBeGreaterThanOrEqual(150);
  // A free unit is said available once (its badge), not twice.
  await expect(page.getByTestId('map-list-item').first().getByText(/^available$/i)).toHaveCount(1);
  await page.screenshot({ path: '.tmp/busy-shift-map-1366.png' });
  await expectNoViolations(page, 'the map with calls placed from the phone call');

  await page.goto('/dashboard/ambulance-tracking');
  const [free] = await freeUnits(page, admin);
  const row = page.locator(`[data-testid="fleet-row-${free.id}"]`);
  await expect(row.getByTestId('fleet-class-badge')).toHaveText('Available');
  await expect(row.getByText('Available', { exact: true })).toHaveCount(1);
  await page.screenshot({ path: '.tmp/busy-shift-fleet.png', fullPage: true });
  await expectNoViolations(page, 'the fleet');
});

test('a patient page open when the call ended stops offering Share, before anyone presses it', async ({ page }) => {
  const operator = await apiToken(page, 'operator');
  const [unit] = await freeUnits(page, operator);
  const caseId = await dispatchCase(page, operator, { to: `ends.${run.toLowerCase()}@example.com`, patientName: `Ends ${run}`, description: 'Injury', ambulanceId: unit.id });
  const path = await locationPath(page, caseId);
  await page.clock.install();
  await page.goto(path);
  const share = page.getByRole('button', { name: 'Share My Location' });
  await expect(share).toBeEnabled();
  const closed = await page.request.put(`/api/cases/${caseId}`, { headers: auth(operator), data: { status: 'closed' } });
  expect(closed.ok()).toBeTruthy();
  await page.clock.runFor(31_000);
  await expect(page.getByTestId('location-closed')).toContainText('This case is closed. Location sharing has stopped.');
  await expect(share).toBeDisabled();
});

test('the device id shown once: the confirmation focuses Cancel; Escape asks before an uncopied id is lost', async ({ page, defer }) => {
  const admin = await apiToken(page, 'admin');
  const plate = `DEV ${run}`;
  const created = await page.request.post('/api/ambulances', { headers: auth(admin), data: { license_plate: plate, status: 'available' } });
  expect(created.status(), await created.text()).toBe(201);
  const ambulanceId: number = (await created.json()).ambulance.id;
  defer(async () => {
    await page.request.delete(`/api/ambulances/${ambulanceId}`, { headers: auth(admin) });
  });
  await signIn(page, 'admin', '/admin-dashboard/ambulances');
  await page.getByRole('row').filter({ hasText: plate }).getByRole('button', { name: `Device identity for ambulance ${plate}` }).click();
  const ask = page.getByRole('dialog', { name: `New device identity for ${plate}?` });
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await ask.getByRole('button', { name: 'Issue device identity' }).click();

  const issued = page.getByRole('dialog', { name: `Device identity for ${plate}` });
  await expect(issued.getByTestId('device-id')).not.toBeEmpty();
  await page.keyboard.press('Escape');
  const warning = issued.getByTestId('device-leave-warning');
  await expect(warning).toContainText('The device id is not copied');
  await expect(issued).toBeVisible();
  await expect(issued.getByRole('button', { name: 'Keep it open' })).toBeFocused();
  await page.screenshot({ path: '.tmp/busy-shift-device-escape.png' });
  await expectNoViolations(page, 'the device dialog asking before it closes');
  await page.keyboard.press('Enter');
  await expect(warning).toHaveCount(0);
  await expect(issued.getByTestId('device-id')).toBeVisible();
  // A click beside it does nothing; closing without copying is a choice made on purpose.
  await page.mouse.click(5, 5);
  await expect(issued).toBeVisible();
  await page.keyboard.press('Escape');
  await issued.getByRole('button', { name: 'Close without copying' }).click();
  await expect(issued).toBeHidden();
});

test.describe('axe finds no violation in the loading states and on the tracking page\'s toast', () => {
  test('the operator dashboard while its figures load (skeleton tiles)', async ({ page }) => {
    const cases = await holdRequests(page, '/api/cases');
    const ambulances = await holdRequests(page, '/api/ambulances');
    await openAs(page, 'operator', '/dashboard');
    await expect(page.locator('.MuiSkeleton-root').first()).toBeVisible();
    await expectNoViolations(page, 'the operator dashboard loading', { except: (u) => cases(u) || ambulances(u) });
  });

  test('the admin overview while its figures load (skeleton tiles)', async ({ page }) => {
    const cases = await holdRequests(page, '/api/cases');
    const ambulances = await holdRequests(page, '/api/ambulances');
    await openAs(page, 'admin', '/admin-dashboard');
    await expect(page.locator('.MuiSkeleton-root').first()).toBeVisible();
    await expectNoViolations(page, 'the admin overview loading', { except: (u) => cases(u) || ambulances(u) || u.includes('/api/reports/') || u.includes('/api/users/operators') });
  });

  test('the map and the fleet while the ambulances load', async ({ page }) => {
    const ambulances = await holdRequests(page, '/api/ambulances');
    await openAs(page, 'operator', '/dashboard/ambulance-map');
    await expect(page.getByText('Loading ambulances...')).toBeVisible();
    await expectNoViolations(page, 'the map loading', { except: ambulances });
    await page.goto('/dashboard/ambulance-tracking');
    await expect(page.getByText('Loading ambulances...')).toBeVisible();
    await expectNoViolations(page, 'the fleet loading', { except: ambulances });
  });

  test('the board with a waiting and a running call', async ({ page }) => {
    const admin = await apiToken(page, 'admin');
    const [unit] = await freeUnits(page, admin);
    await createCase(page, admin, { patientName: `Axe Run ${run}`, priority: 2, ambulance_id: unit.id });
    const waiting = await createCase(page, admin, { status: 'pending', priority: 1, patientName: `Axe Wait ${run}`, intake_location: HYDERABAD });
    await openAs(page, 'operator', '/dashboard/cases');
    await expect(assignButton(page, waiting.id)).toBeVisible();
    await expectNoViolations(page, 'the board with Assign');
  });

  test('the tracking page\'s toast has a name and a role that fits', async ({ page }) => {
    const operator = await apiToken(page, 'operator');
    const [unit] = await freeUnits(page, operator);
    // SPEC's progress bar moves for ever: with reduced motion it steps without a transition, so the page can settle.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`/track/${unit.id}?t=${'x'.repeat(43)}`);
    const toast = page.locator('.ll-toasts').getByText('Tracking link not found or expired');
    await expect(toast).toBeVisible();
    // The toast closes itself after 5 s, but not while the pointer rests on it: held there while axe reads it.
    await toast.hover();
    await expectNoViolations(page, 'the tracking page with its error toast', { keepPointer: true });
    await expect(toast, 'the toast was on screen while axe read it').toBeVisible();
    await page.locator('.ll-toasts').getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);
  });
});
