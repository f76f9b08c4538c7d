import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, dispatchCase, signIn } from './helpers';

noOpenCallsAroundEachTest();

// Issue 15, call intake: the New Case form's priority and call start, the queue when no
// ambulance is free, and the unit statuses on the fleet screen and the map. This spec takes
// every ambulance of its own fresh database, so its steps run in order in one test.

interface CaseDetail {
  case: { id: string; status: string; priority: number; call_received_at: string; created_at: string; ambulance_id: number | null; assignment: unknown };
  assignments: { status: string; ambulance_id: number | null }[];
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function caseDetail(page: Page, token: string, id: string): Promise<CaseDetail> {
  const res = await page.request.get(`/api/cases/${id}`, { headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return res.json();
}

/** The case id from the share link the form shows after a create. */
async function createdCaseId(page: Page): Promise<string> {
  const link = page.getByTestId('share-link');
  await expect(link).toHaveText(/\/location\/[0-9a-f-]{36}\?t=/);
  return new URL((await link.textContent())!).pathname.split('/location/')[1];
}

/** Opens a focused MUI select from the keyboard, type-ahead to an option, picks it. */
async function pickByKeyboard(page: Page, typed: string) {
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.type(typed);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
}

/** The unit-status turnout shortened to 2 s for this page, so a fresh dispatch is soon late (the server's is NFPA's 60 s). */
async function shortTurnout(page: Page) {
  await page.route('**/api/config', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), turnout_s: 2 } });
  });
}

test('call intake: priority from the type, call start, queue when none is free, unit statuses on fleet and map', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'operator');
  const token = await apiToken(page, 'operator');
  await page.goto('/dashboard/new-case');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();

  // --- Dispatch, typing only ---
  await expect(page.getByRole('button', { name: 'Call started' })).toBeVisible();
  const typingFrom = Date.now();
  await page.getByLabel('Patient Name').focus();
  await page.keyboard.type('Kavya Intake');
  await expect(page.getByTestId('call-started')).toHaveText(/^Call started 0:0\d ago$/);
  await page.keyboard.press('Tab');
  await page.keyboard.type('kavya.intake@example.com');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toBeFocused();
  const priority = page.getByRole('combobox', { name: /Priority/ });
  await expect(priority).not.toHaveText(/\d/);
  await pickByKeyboard(page, 'Heart');
  await expect(priority).toHaveText('1 — Life-threatening');
  await expect(page.getByText('From the emergency type (Heart Attack)')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeFocused();
  await pickByKeyboard(page, 'TS09 EA 1001');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toHaveText('TS09 EA 1001');
  await page.keyboard.press('Tab');
  await expect(priority).toBeFocused();
  // The call's clock runs: let it pass two seconds so "received" and "created" differ visibly.
  await expect(page.getByTestId('call-started')).toHaveText(/^Call started 0:0[2-9] ago$/);
  await page.screenshot({ path: '.tmp/call-intake-form.png', fullPage: true });
  const submitAt = Date.now();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Notes' })).toBeFocused(); // optional for every type (issue 25)
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Dispatch Emergency' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Emergency case created and ambulance assigned successfully!')).toBeVisible();
  const dispatchedId = await createdCaseId(page);
  // A new form: the clock waits for the next call.
  await expect(page.getByRole('button', { name: 'Call started' })).toBeVisible();

  const dispatched = await caseDetail(page, token, dispatchedId);
  expect(dispatched.case).toMatchObject({ status: 'active', priority: 1 });
  const received = Date.parse(dispatched.case.call_received_at);
  expect(received).toBeGreaterThanOrEqual(typingFrom - 1000);
  expect(received).toBeLessThan(submitAt - 1000);
  expect(received).toBeLessThan(Date.parse(dispatched.case.created_at) - 1000);
  expect(dispatched.assignments).toHaveLength(1);
  expect(dispatched.assignments[0]).toMatchObject({ status: 'dispatched' });

  // --- Every ambulance taken: the spec's text, and Queue call ---
  const list = await page.request.get('/api/ambulances', { headers: auth(token) });
  const free = ((await list.json()).ambulances as { id: number; status: string }[]).filter((a) => a.status === 'available');
  expect(free.length).toBeGreaterThan(0);
  for (const [i, a] of free.entries()) {
    await dispatchCase(page, token, { to: `busy${i}@example.com`, patientName: `Busy Fleet ${i}`, description: 'Injury', ambulanceId: a.id });
  }
  await expect(page.getByText('No ambulances available')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Dispatch Emergency' })).toBeDisabled();
  const queue = page.getByRole('button', { name: 'Queue call' });
  await expect(queue).toBeEnabled();

  await page.getByLabel('Patient Name').focus();
  await page.keyboard.type('Rohan Queued');
  await page.keyboard.press('Tab');
  await page.keyboard.type('rohan.queued@example.com');
  await page.keyboard.press('Tab');
  await pickByKeyboard(page, 'Acc');
  await expect(priority).toHaveText('2 — Emergency');
  // The operator knows better than the type: picked by hand, it stays (Tab passes the disabled ambulance select).
  await page.keyboard.press('Tab');
  await expect(priority).toBeFocused();
  await pickByKeyboard(page, '3');
  await expect(priority).toHaveText('3 — Urgent');
  await expect(page.getByText('Set by hand')).toBeVisible();
  await page.screenshot({ path: '.tmp/call-intake-queue.png', fullPage: true });
  await expectNoViolations(page, 'the New Case form with no ambulance free', { soft: true });
  await queue.click();
  await expect(page.getByText('Call queued — P3, waiting for an ambulance')).toBeVisible();
  const queuedId = await createdCaseId(page);
  const queued = await caseDetail(page, token, queuedId);
  expect(queued.case).toMatchObject({ status: 'pending', priority: 3, ambulance_id: null, assignment: null });
  expect(queued.assignments).toHaveLength(0);

  // --- The fleet screen: unit statuses in words, a legend, the turnout flag ---
  await shortTurnout(page);
  await page.goto('/dashboard/ambulance-tracking');
  const row = page.locator('[data-testid^="fleet-row-"]').filter({ hasText: 'TS09 EA 1001' });
  await expect(row.getByTestId('unit-status')).toHaveText('Dispatched');
  await expect(page.getByTestId('unit-status').filter({ hasText: 'Dispatched' })).toHaveCount(free.length + 1);
  const legend = page.getByTestId('unit-status-legend');
  for (const label of ['Available', 'Dispatched', 'En route', 'On scene', 'Transporting', 'At hospital', 'Maintenance']) {
    await expect(legend).toContainText(label);
  }
  await expect(page.getByTestId('unit-legend-dispatched')).toHaveText(`Dispatched${free.length + 1}`);
  await expect(row.getByTestId('turnout-late')).toHaveText('Turnout late');
  await page.screenshot({ path: '.tmp/call-intake-fleet.png', fullPage: true });
  await expectNoViolations(page, 'the fleet screen with unit statuses', { soft: true });

  // --- The map: pins in unit-status colours with the legend naming them, late pins badged ---
  await page.goto('/dashboard/ambulance-map');
  const mapLegend = page.getByTestId('unit-status-legend');
  for (const label of ['Available', 'Dispatched', 'En route', 'On scene', 'Transporting', 'At hospital', 'Maintenance']) {
    await expect(mapLegend).toContainText(label);
  }
  await expect(page.getByTestId('legend-available')).toBeVisible();
  // The map counts the ambulances it can place: one added elsewhere without a position is not on it.
  const fleet = await page.request.get('/api/ambulances', { headers: { authorization: `Bearer ${token}` } });
  const onMapBusy = ((await fleet.json()).ambulances as { status: string; location: unknown }[]).filter((a) => a.status === 'busy' && a.location).length;
  await expect(page.getByTestId('legend-busy')).toContainText(String(onMapBusy));
  await expect(page.getByTestId('map-list-item').filter({ hasText: 'TS09 EA 1001' }).getByTestId('map-unit-status')).toContainText('Dispatched');
  await expect(page.locator('.ll-ambulance-pin.ll-pin-late')).toHaveCount(onMapBusy);
  await page.screenshot({ path: '.tmp/call-intake-map.png', fullPage: true });
  await expectNoViolations(page, 'the map with its unit-status legend', { soft: true });
});

test('admin: Edit Case changes a queued call\'s priority, and the ambulances table shows unit statuses', async ({ page }) => {
  test.setTimeout(60_000); // two screens, a dialog and axe on a full table
  const op = await apiToken(page, 'operator');
  const patient = `Priority Edit ${Date.now().toString(36)}`;
  const created = await page.request.post('/api/cases', {
    headers: auth(op),
    data: { to: 'priority.edit@example.com', status: 'pending', patientName: patient, description: 'Injury', caseType: 'Injury' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const caseId = ((await created.json()).case as { id: string }).id;
  expect((await caseDetail(page, op, caseId)).case.priority).toBe(2);

  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'All Cases' }).click();
  const row = page.locator(`tr[data-case-id="${caseId}"]`);
  await row.getByRole('button', { name: `Edit case of ${patient}` }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edit Case Information' });
  const priority = dialog.getByRole('combobox', { name: 'Priority' });
  await expect(priority).toHaveText('P2 Emergency');
  await priority.click();
  await page.getByRole('option', { name: 'P1 Life-threatening' }).click();
  await page.screenshot({ path: '.tmp/call-intake-edit-case.png' });
  await expect(page.getByRole('listbox')).toBeHidden();
  await expectNoViolations(page, 'the Edit Case dialog with its Priority', { soft: true });
  await dialog.getByRole('button', { name: 'Update Case' }).click();
  await expect(dialog).toBeHidden();
  const edited = await caseDetail(page, op, caseId);
  expect(edited.case).toMatchObject({ priority: 1, status: 'pending' });

  await page.getByRole('navigation').getByRole('link', { name: 'Manage Ambulances' }).click();
  const table = page.getByRole('table', { name: 'Ambulances' });
  await expect(table.getByRole('columnheader', { name: 'Unit Status' })).toBeVisible();
  const chips = table.getByTestId('unit-status');
  const listed = await page.request.get('/api/ambulances', { headers: { authorization: `Bearer ${op}` } });
  await expect(chips).toHaveCount(((await listed.json()).ambulances as unknown[]).length);
  for (const text of await chips.allTextContents()) expect(['Available', 'Dispatched', 'Maintenance']).toContain(text);
  await page.screenshot({ path: '.tmp/call-intake-admin-ambulances.png', fullPage: true });
  await expectNoViolations(page, 'the admin ambulances table', { soft: true });
});
