import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from './fixtures';
import { apiToken, closeOpenCalls, settled, signIn, trackRequests } from './helpers';

// Issue 25's shift, played end to end: five calls on three free ambulances, two dispatchers in
// two browsers. Dispatcher A is the demo operator (a desk with New Case and the board); dispatcher
// B is a second operator account made for the test (its own session, its own board); the other
// calls come in from the call-taking desk (the admin, through the API), so that both dispatchers
// are alerted by them. Every other unit is put in maintenance for the test and given back after it;
// specs share one server, so the test starts and leaves with no open call. No board is reloaded
// once open: all that changes on it comes live.

test.beforeEach(async ({ page }) => {
  trackRequests(page);
  await closeOpenCalls(page);
});

const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const at = (latitude: number, longitude: number, address: string) => ({ latitude, longitude, address, source: 'address' as const });

interface Case { id: string; status: string; priority: number; ambulance_id: number | null; license_plate: string | null }
interface Unit { id: number; license_plate: string; status: string; unit_status: string }
interface Assignment { ambulance_id: number | null; status: string }
interface Credentials { email: string; username: string; phone: string }

/** What the test changed on the shared server, undone after it whatever happened. */
const undo: { units: number[]; operatorId?: number; contexts: BrowserContext[] } = { units: [], contexts: [] };

test.afterEach(async ({ page }) => {
  for (const c of undo.contexts.splice(0)) await c.close();
  await closeOpenCalls(page);
  const admin = await apiToken(page, 'admin');
  for (const id of undo.units.splice(0)) {
    const res = await page.request.put(`/api/ambulances/${id}`, { headers: auth(admin), data: { status: 'available' } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  if (undo.operatorId != null) {
    const res = await page.request.delete(`/api/users/${undo.operatorId}`, { headers: auth(admin) });
    expect(res.ok(), await res.text()).toBeTruthy();
    undo.operatorId = undefined;
  }
});

async function fleet(page: Page, token: string): Promise<Unit[]> {
  const res = await page.request.get('/api/ambulances', { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()).ambulances as Unit[]).sort((a, b) => a.id - b.id);
}

/** The live board as the server answers it (after closeOpenCalls, every open call on it is this test's). */
async function board(page: Page, token: string): Promise<Case[]> {
  const res = await page.request.get('/api/cases', { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).cases;
}

async function caseWithAssignments(page: Page, token: string, id: string): Promise<{ case: Case; assignments: Assignment[] }> {
  const res = await page.request.get(`/api/cases/${id}`, { headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return res.json();
}

/** A call from the call-taking desk (the admin: someone else than either dispatcher, so both are alerted), waiting for an ambulance. */
async function incomingCall(page: Page, token: string, data: { patientName: string; priority: number; description: string; intake_location: ReturnType<typeof at> }): Promise<string> {
  const res = await page.request.post('/api/cases', {
    headers: auth(token),
    data: { to: `shift.${run.toLowerCase()}@example.com`, status: 'pending', ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).case.id;
}

async function setUnitStatus(page: Page, token: string, ambulanceId: number, status: string) {
  const res = await page.request.post(`/api/ambulances/${ambulanceId}/unit-status`, { headers: auth(token), data: { status } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** A second dispatcher: an operator account of its own (the demo has one), removed after the test. */
async function secondOperator(page: Page, token: string): Promise<Credentials> {
  const who = { name: `Dispatcher B ${run}`, email: `dispatcher.b.${run.toLowerCase()}@example.com`, phone: `555${String(Date.now()).slice(-7)}` };
  const res = await page.request.post('/api/users', {
    headers: auth(token),
    data: { ...who, shift: 1, gender: 2, location: 'Dispatch Desk 2, Hyderabad' },
  });
  expect(res.status(), await res.text()).toBe(201);
  undo.operatorId = (await res.json()).user.id;
  return { email: who.email, username: who.name, phone: who.phone };
}

/** Signs in through the sign-in form, as the helpers' signIn does for the demo accounts. */
async function signInWith(page: Page, who: Credentials) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Phone Number').fill(who.phone);
  await page.getByRole('button', { name: 'GET STARTED' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A board open in its own tab, loaded and live (its first lists are the alerts' baseline); counts its page loads. */
async function openBoard(page: Page): Promise<() => number> {
  let loads = 0;
  page.on('load', () => { loads += 1; });
  await page.goto('/dashboard/cases');
  await expect(page.getByText('No active emergency cases', { exact: true })).toBeVisible();
  await settled(page);
  return () => loads;
}

async function newContext(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  undo.contexts.push(context);
  const page = await context.newPage();
  trackRequests(page);
  return page;
}

const card = (page: Page, id: string) => page.locator(`[data-testid="case-card"][data-case-id="${id}"]`);
const assignButton = (page: Page, id: string) => card(page, id).getByRole('button', { name: /^Assign an ambulance to the call of / });
const waitingNotice = (page: Page) => page.locator('[data-testid="call-alert"][data-kind="waiting"]');
const toast = (page: Page, text: string) => page.locator('#notistack-snackbar').filter({ hasText: text });
/** The plate of a menu item of Assign (its first line). */
const plateOf = async (item: Locator) => (await item.locator('.MuiListItemText-primary').textContent())!.trim();

/** The server's count of the shift: open calls waiting and running (GET /api/cases), free units of the three (GET /api/ambulances). */
async function serverShift(page: Page, token: string, units: Unit[]) {
  const open = (await board(page, token)).filter((c) => c.status === 'pending' || c.status === 'active');
  const waiting = open.filter((c) => c.status === 'pending' || c.ambulance_id == null);
  const running = open.filter((c) => c.status === 'active' && c.ambulance_id != null);
  const ours = (await fleet(page, token)).filter((a) => units.some((u) => u.id === a.id));
  const free = ours.filter((a) => a.status === 'available' && a.unit_status === 'available');
  return { open, running, ours, counts: { waiting: waiting.length, running: running.length, free: free.length } };
}

/** The server's count, and the rule it must keep once the dispatchers have acted: no call waits while a unit is free, no unit is on two calls. */
async function expectServerShift(page: Page, token: string, units: Unit[], expected: { waiting: number; running: number; free: number }) {
  const { open, running, ours, counts } = await serverShift(page, token, units);
  expect(counts, 'the server\'s count of the shift').toEqual(expected);
  expect(counts.waiting === 0 || counts.free === 0, 'a call waits while a unit is free').toBe(true);
  const held = running.map((c) => c.ambulance_id!);
  expect(new Set(held).size, `a unit on two calls: ${held.join(', ')}`).toBe(held.length);
  // Every unit a call holds is busy on it; every other one of the three is free.
  for (const a of ours) {
    if (held.includes(a.id)) expect(a.unit_status, `${a.license_plate}, on a call`).not.toMatch(/^(available|maintenance)$/);
    else expect(a.unit_status, `${a.license_plate}, on no call`).toBe('available');
  }
  // And by the assignments: no unit has an open one on two calls.
  const openAssignments: number[] = [];
  for (const c of open) {
    const { assignments } = await caseWithAssignments(page, token, c.id);
    openAssignments.push(...assignments.filter((x) => !['cleared', 'cancelled'].includes(x.status)).map((x) => x.ambulance_id!));
  }
  const byId = (a: number, b: number) => a - b;
  expect(openAssignments.sort(byId), 'open assignments, one a unit').toEqual([...held].sort(byId));
}

test('a busy shift: five calls on three units, two dispatchers, no call left waiting while a unit is free', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const admin = await apiToken(page, 'admin');

  // Three units free, every other one in maintenance for the shift.
  const free = (await fleet(page, admin)).filter((a) => a.status === 'available' && a.unit_status === 'available');
  expect(free.length, 'free units after closeOpenCalls').toBeGreaterThanOrEqual(3);
  const units = free.slice(0, 3);
  for (const a of free.slice(3)) {
    const res = await page.request.put(`/api/ambulances/${a.id}`, { headers: auth(admin), data: { status: 'maintenance' } });
    expect(res.ok(), await res.text()).toBeTruthy();
    undo.units.push(a.id);
  }
  const plates = new RegExp(`^(${units.map((u) => u.license_plate).join('|')}) — `);
  const unitOf = (plate: string) => units.find((u) => u.license_plate === plate)!;

  // Dispatcher A: the demo operator, with New Case in one tab and the board in another.
  const desk = page;
  await signIn(desk, 'operator');
  const boardA = await desk.context().newPage();
  trackRequests(boardA);
  const loadsA = await openBoard(boardA);
  // Dispatcher B: another operator, in another browser, on the board.
  const boardB = await newContext(browser);
  await signInWith(boardB, await secondOperator(page, admin));
  const loadsB = await openBoard(boardB);
  await desk.goto('/dashboard/new-case');
  const ambulanceSelect = desk.getByRole('combobox', { name: /Assign Ambulance/ });
  await expect(desk.getByText('3 available', { exact: true })).toBeVisible();

  // Call 1, P2: A takes it on New Case; the quickest of the three is preselected for its place.
  const p2Name = `Shift P2 ${run}`;
  await desk.getByRole('textbox', { name: 'Location' }).fill('17.4126, 78.4482');
  await desk.getByRole('textbox', { name: 'Location' }).press('Enter');
  await expect(desk.getByTestId('intake-understood')).toContainText('Location:');
  await desk.getByLabel('Patient Name').fill(p2Name);
  await desk.getByLabel('Email Address').fill(`shift.p2.${run.toLowerCase()}@example.com`);
  await desk.getByRole('combobox', { name: /Emergency Type/ }).click();
  await desk.getByRole('option', { name: 'Injury' }).click();
  await expect(desk.getByRole('combobox', { name: /Priority/ })).toHaveText('2 — Emergency');
  await expect(desk.getByText('Suggested: the quickest of 3 available', { exact: true })).toBeVisible();
  await expect(ambulanceSelect).toHaveText(plates);
  const p2Plate = plates.exec((await ambulanceSelect.textContent())!)![1];
  await desk.getByRole('button', { name: 'Dispatch Emergency' }).click();
  await expect(toast(desk, 'Emergency case created and ambulance assigned successfully!')).toBeVisible();
  await expect(desk.getByTestId('share-link-title')).toContainText(`${p2Name}'s call`);
  const p2 = new URL((await desk.getByTestId('share-link').textContent())!).pathname.split('/location/')[1];
  for (const b of [boardA, boardB]) {
    await expect(card(b, p2)).toHaveAttribute('data-status', 'active');
    await expect(card(b, p2).getByTestId('unit-line')).toContainText(p2Plate);
  }

  // Call 2, P4, comes in waiting: B sends it the quickest free unit from B's board.
  const p4Name = `Shift P4 ${run}`;
  const p4 = await incomingCall(page, admin, { patientName: p4Name, priority: 4, description: 'Back pain', intake_location: at(17.4399, 78.4983, 'Secunderabad, Hyderabad') });
  await expect(card(boardA, p4)).toContainText('Waiting for an ambulance');
  await assignButton(boardB, p4).click();
  let first = boardB.getByRole('menu', { name: `Ambulances for the call of ${p4Name}` }).getByTestId('assign-free').first();
  await expect(first).toBeFocused();
  const p4Plate = await plateOf(first);
  await first.click();
  await expect(toast(boardB, `${p4Plate} dispatched to the P4 call of ${p4Name}`)).toBeVisible();
  for (const b of [boardA, boardB]) {
    await expect(card(b, p4)).toHaveAttribute('data-status', 'active');
    await expect(card(b, p4).getByTestId('unit-line')).toContainText(p4Plate);
  }

  // Call 3, P3, comes in waiting: A sends it the last free unit from A's board.
  const p3Name = `Shift P3 ${run}`;
  const p3 = await incomingCall(page, admin, { patientName: p3Name, priority: 3, description: 'Fever', intake_location: at(17.3616, 78.4747, 'Charminar, Hyderabad') });
  await assignButton(boardA, p3).click();
  first = boardA.getByRole('menu', { name: `Ambulances for the call of ${p3Name}` }).getByTestId('assign-free').first();
  await expect(first).toBeFocused();
  const p3Plate = await plateOf(first);
  await first.click();
  for (const b of [boardA, boardB]) {
    await expect(card(b, p3)).toHaveAttribute('data-status', 'active');
    await expect(card(b, p3).getByTestId('unit-line')).toContainText(p3Plate);
  }
  expect(new Set([p2Plate, p4Plate, p3Plate]).size, 'three calls, three units').toBe(3);
  await expectServerShift(page, admin, units, { waiting: 0, running: 3, free: 0 });

  // Call 4, P1: A takes it on New Case, which says none is free and queues it.
  const p1aName = `Shift P1 first ${run}`;
  await expect(desk.getByText('No ambulance is free: queue the call')).toBeVisible();
  await desk.getByRole('textbox', { name: 'Location' }).fill('17.4239, 78.4738');
  await desk.getByRole('textbox', { name: 'Location' }).press('Enter');
  await expect(desk.getByTestId('intake-understood')).toContainText('Location:');
  await desk.getByLabel('Patient Name').fill(p1aName);
  await desk.getByLabel('Email Address').fill(`shift.p1a.${run.toLowerCase()}@example.com`);
  await desk.getByRole('combobox', { name: /Emergency Type/ }).click();
  await desk.getByRole('option', { name: 'Cardiac arrest' }).click();
  await desk.getByRole('button', { name: 'Queue call' }).click();
  await expect(toast(desk, 'Call queued — P1, waiting for an ambulance')).toBeVisible();
  await expect(desk.getByTestId('share-link-title')).toContainText(`${p1aName}'s call`);
  const p1a = new URL((await desk.getByTestId('share-link').textContent())!).pathname.split('/location/')[1];
  // A's second screen: the Dashboard (the app's own link: the tab is not reloaded either).
  await desk.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(desk.getByTestId('tile-waiting-calls')).toHaveText('1');

  // Call 5, P1, comes in waiting from the call-taking desk.
  const p1bName = `Shift P1 second ${run}`;
  const p1b = await incomingCall(page, admin, { patientName: p1bName, priority: 1, description: 'Stroke', intake_location: at(17.385, 78.4867, 'Abids, Hyderabad') });

  // The busiest moment: two calls waiting, no unit free. Both boards show it live, in one notice.
  for (const b of [boardA, boardB]) {
    for (const id of [p1a, p1b]) {
      await expect(card(b, id)).toHaveAttribute('data-status', 'pending');
      await expect(card(b, id).getByTestId('unit-line')).toHaveText('Waiting for an ambulance');
    }
    await expect(waitingNotice(b)).toHaveText(/^2 calls waiting, oldest P1 (under 1 min|\d+ min)$/);
    await expect(waitingNotice(b)).toHaveAttribute('data-priority', '1');
  }
  await expect(desk.getByTestId('tile-waiting-calls')).toHaveText('2');
  await expect(desk.getByTestId('tile-waiting-calls-caption')).toHaveText(/^Oldest P1, waiting (under 1 min|\d+ min)$/);
  await expect(desk.getByTestId('tile-available-ambulances')).toHaveText('0');
  await expect(desk.getByTestId('tile-active-cases')).toHaveText('3');
  await expectServerShift(page, admin, units, { waiting: 2, running: 3, free: 0 });
  for (const [p, name] of [[boardA, 'dispatcher-a-board'], [boardB, 'dispatcher-b-board'], [desk, 'dispatcher-a-dashboard']] as const) {
    await p.mouse.move(1, 1);
    await settled(p);
    await p.screenshot({ path: `.tmp/busy-shift/shift-busiest-${name}.png`, fullPage: true });
  }

  // B takes the P4's unit for the first P1: Assign, "Take from a lower-priority call", a question
  // with the focus on Cancel, then the unit taken. The P4 waits again, on both boards.
  await assignButton(boardB, p1a).click();
  const menu = boardB.getByRole('menu', { name: `Ambulances for the call of ${p1aName}` });
  await expect(menu.getByTestId('assign-none')).toHaveText('No ambulance is free');
  await expect(menu.getByText('Take from a lower-priority call')).toBeVisible();
  const take = menu.getByTestId('assign-divert').filter({ hasText: p4Plate });
  await expect(take).toContainText('On a P4 call, dispatched');
  await take.click();
  const dialog = boardB.getByRole('dialog', { name: `Take ${p4Plate} from the P4 call?` });
  await expect(dialog).toContainText(`The P4 call of ${p4Name} goes back to the queue`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: `Take ${p4Plate}`, exact: true }).click();
  await expect(toast(boardB, `${p4Plate} dispatched to the P1 call of ${p1aName}; the P4 call of ${p4Name} is waiting again`)).toBeVisible();
  for (const b of [boardA, boardB]) {
    await expect(card(b, p1a)).toHaveAttribute('data-status', 'active');
    await expect(card(b, p1a).getByTestId('unit-line')).toContainText(p4Plate);
    await expect(card(b, p4)).toHaveAttribute('data-status', 'pending');
    await expect(card(b, p4).getByTestId('unit-line')).toHaveText('Waiting for an ambulance');
    await expect(assignButton(b, p4)).toBeVisible();
    await expect(waitingNotice(b)).toHaveText(/^2 calls waiting, oldest P1 (under 1 min|\d+ min)$/);
  }
  await expect(desk.getByTestId('tile-waiting-calls')).toHaveText('2');
  expect((await caseWithAssignments(page, admin, p4)).case).toMatchObject({ status: 'pending', ambulance_id: null });
  await expectServerShift(page, admin, units, { waiting: 2, running: 3, free: 0 });

  // The P2's crew finishes (its phone reports each step) and clears: both boards say the unit is
  // free for the waiting P1, and A sends it from A's board by Assign.
  for (const step of ['en_route', 'on_scene', 'transporting', 'at_hospital', 'cleared']) await setUnitStatus(page, admin, unitOf(p2Plate).id, step);
  for (const b of [boardA, boardB]) {
    await expect(card(b, p2)).toHaveCount(0);
    await expect(b.getByTestId('unit-free-alert')).toContainText(`${p2Plate} is free — 2 calls waiting, oldest P1`);
  }
  // The moment a dispatcher has to act on: the server has a free unit and two calls waiting.
  expect((await serverShift(page, admin, units)).counts).toEqual({ waiting: 2, running: 2, free: 1 });
  await assignButton(boardA, p1b).click();
  first = boardA.getByRole('menu', { name: `Ambulances for the call of ${p1bName}` }).getByTestId('assign-free').first();
  await expect(first).toBeFocused();
  await expect(first.locator('.MuiListItemText-primary')).toHaveText(p2Plate);
  await boardA.keyboard.press('Enter');
  await expect(toast(boardA, `${p2Plate} dispatched to the P1 call of ${p1bName}`)).toBeVisible();
  for (const b of [boardA, boardB]) {
    await expect(card(b, p1b)).toHaveAttribute('data-status', 'active');
    await expect(card(b, p1b).getByTestId('unit-line')).toContainText(p2Plate);
    await expect(b.getByTestId('unit-free-alert')).toHaveCount(0);
    // The P4 still waits, and both dispatchers are told so: its unit was taken, it is back in the queue.
    await expect(waitingNotice(b)).toContainText(`P4 call back in the queue, waiting for an ambulance`);
  }
  await expect(desk.getByTestId('tile-waiting-calls')).toHaveText('1');
  await expect(desk.getByTestId('tile-waiting-calls-caption')).toHaveText(/^Oldest P4, waiting (under 1 min|\d+ min)$/);
  await expectServerShift(page, admin, units, { waiting: 1, running: 3, free: 0 });

  // The P3's crew is worked from B's board to Clear (asked first, the focus on Cancel); the P4
  // still waiting takes the freed unit from the alert on A's board.
  const steps = card(boardB, p3);
  for (const [label, chip] of [['En route', 'En route'], ['On scene', 'On scene'], ['Transporting', 'Transporting'], ['At hospital', 'At hospital'], ['Handover complete', 'Handed over']]) {
    await steps.getByRole('button', { name: `Next: ${label} for ${p3Plate}` }).click();
    await expect(steps.getByTestId('unit-status-chip')).toHaveText(chip);
  }
  await steps.getByRole('button', { name: `Clear for ${p3Plate}` }).click();
  const clear = boardB.getByRole('dialog', { name: `Clear ${p3Plate}?` });
  await expect(clear.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await clear.getByRole('button', { name: 'Clear', exact: true }).click();
  for (const b of [boardA, boardB]) await expect(card(b, p3)).toHaveCount(0);
  const freed = boardA.getByTestId('unit-free-alert');
  await expect(freed).toContainText(`${p3Plate} is free — 1 call waiting, oldest P4`);
  await freed.getByRole('button', { name: `Assign ${p3Plate} to oldest P4 call` }).click();
  await expect(toast(boardA, `${p3Plate} assigned to the P4 call of ${p4Name}`)).toBeVisible();

  // The end of the rush: every call that is open has its own unit, none waits, on both boards and on the server.
  for (const b of [boardA, boardB]) {
    await expect(card(b, p4)).toHaveAttribute('data-status', 'active');
    await expect(card(b, p4).getByTestId('unit-line')).toContainText(p3Plate);
    await expect(b.locator('[data-testid="case-card"][data-status="pending"]')).toHaveCount(0);
    await expect(waitingNotice(b)).toHaveCount(0);
    await expect(b.getByTestId('unit-free-alert')).toHaveCount(0);
  }
  await expect(desk.getByTestId('tile-waiting-calls')).toHaveText('0');
  await expect(desk.getByTestId('tile-waiting-calls-caption')).toHaveText('None waiting');
  await expectServerShift(page, admin, units, { waiting: 0, running: 3, free: 0 });
  const ended = await Promise.all([p2, p3].map(async (id) => (await caseWithAssignments(page, admin, id)).case.status));
  expect(ended).toEqual(['resolved', 'resolved']);
  const running = await Promise.all([p1a, p1b, p4].map(async (id) => (await caseWithAssignments(page, admin, id)).case.license_plate));
  expect(running).toEqual([p4Plate, p2Plate, p3Plate]);
  expect(loadsA(), 'A\'s board was never reloaded').toBe(1);
  expect(loadsB(), 'B\'s board was never reloaded').toBe(1);
});
