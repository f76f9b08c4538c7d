import { expect, test, type Page, type Request, type Route, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiPath, apiToken, freeAmbulance, signIn, skipTimeUntil } from './helpers';

// Issue 25, a busy shift at intake: New Case when the fleet cannot be loaded (items 4, 13), the
// operator's Dashboard showing what is urgent (item 5), the previous call's share link (item 6),
// keyboard-only intake (item 12) and the new types with notes (item 11). Every call is made here
// through the API (never the demo history), each test starting and leaving with no open call.

noOpenCallsAroundEachTest();

const TAG = `Shift${Date.now() % 1_000_000}`;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const toasts = (page: Page, text: string) => page.locator('#notistack-snackbar').filter({ hasText: text });


async function fail(page: Page, path: string) {
  await page.route(apiPath(path), (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
}

/** Holds every request for `path` unanswered until `release()`: the screen is caught while it loads. */
async function hold(page: Page, path: string) {
  const held: Route[] = [];
  let released = false;
  const matcher = apiPath(path);
  await page.route(matcher, (route) => {
    if (released) return route.continue();
    held.push(route);
  });
  return {
    isHeld: (r: Request) => matcher.test(r.url()),
    release: async () => {
      released = true;
      for (const r of held.splice(0)) await r.continue().catch(() => undefined);
    },
  };
}

async function createCase(page: Page, token: string, data: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/api/cases', {
    headers: auth(token),
    data: { email: 'shift.probe@example.com', caseType: 'Medical Emergency', description: `${TAG} ${String(data.patientName)}`, ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).case.id;
}

/** What has the keyboard focus, by its accessible name as a person would read it. */
const focusName = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return '<body>';
  const labelled = el.getAttribute('aria-labelledby');
  return el.getAttribute('aria-label')
    ?? (labelled ? document.getElementById(labelled.split(' ').pop()!)?.textContent : null)
    ?? (el as HTMLInputElement).labels?.[0]?.textContent?.replace(/\s*\*\s*$/, '').trim()
    ?? el.textContent?.trim()
    ?? el.tagName;
});

test.describe('New Case while the fleet is unknown', () => {
  test('a failed ambulance list: SPEC\'s toast, the error with Retry in the select\'s place, never "none free"; Retry brings the list', async ({ page }) => {
    await signIn(page, 'operator');
    await fail(page, '/api/ambulances');
    // The page's clock jumps over the list's retry back-off (1 s, then 2 s) instead of waiting it out.
    await page.clock.install();
    await page.goto('/dashboard/new-case');

    await skipTimeUntil(page, () => expect(toasts(page, 'Failed to fetch ambulances')).toBeVisible({ timeout: 250 }));
    const failure = page.getByTestId('ambulance-load-failure');
    await expect(failure).toContainText('Failed to fetch ambulances');
    await expect(failure).toContainText('which ambulances are free is unknown');
    // Unknown is not none: no claim that nothing is free, no queue prompt as if none were.
    await expect(page.getByText('No ambulances available')).toHaveCount(0);
    await expect(page.getByText(/No ambulance is free/)).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Dispatch Emergency' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Queue call' })).toHaveClass(/MuiButton-outlined/);
    const retry = failure.getByRole('button', { name: 'Retry' });
    await expect(retry).toBeEnabled({ timeout: 15_000 });
    await page.screenshot({ path: '.tmp/busy-shift/new-case-fleet-failed.png', fullPage: true });
    await expectNoViolations(page, 'New Case with the fleet failed');

    await page.unroute(apiPath('/api/ambulances'));
    await retry.click();
    await expect(failure).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();
    await expect(page.getByText(/^\d+ available$/)).toBeVisible();
  });

  test('while the list loads: worded, readable, and still no "none free"; then the loaded form', async ({ page }) => {
    await signIn(page, 'operator');
    const held = await hold(page, '/api/ambulances');
    await page.goto('/dashboard/new-case');
    await expect(page.getByText('Loading ambulances...')).toBeVisible();
    await expect(page.getByText('No ambulances available')).toHaveCount(0);
    await expect(page.getByText(/No ambulance is free/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Dispatch Emergency' })).toBeDisabled();
    await expectNoViolations(page, 'New Case while the fleet loads', { ignore: held.isHeld });

    await held.release();
    await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();
    await expectNoViolations(page, 'New Case, loaded');
  });
});

test.describe('the operator Dashboard shows what is urgent', () => {
  test('two P1 and a P3 waiting, one P1 past target: Waiting Calls 3 (oldest P1), Past Target 1 (P1), and the late P1 first on the board', async ({ page }) => {
    const token = await apiToken(page, 'operator');
    const unit = await freeAmbulance(page, token, 'TS09 EA 1006');
    await createCase(page, token, { patientName: `${TAG} Late`, priority: 1, ambulance_id: unit.id, call_received_at: ago(50) });
    await createCase(page, token, { patientName: `${TAG} Waiting first`, priority: 1, status: 'pending', call_received_at: ago(4) });
    await createCase(page, token, { patientName: `${TAG} Waiting second`, priority: 1, status: 'pending', call_received_at: ago(2) });
    await createCase(page, token, { patientName: `${TAG} Routine`, priority: 3, status: 'pending', call_received_at: ago(1) });

    await signIn(page, 'operator');
    await expect(page.getByTestId('tile-waiting-calls')).toHaveText('3');
    await expect(page.getByTestId('tile-waiting-calls-caption')).toHaveText(/^Oldest P1, waiting [45] min$/);
    await expect(page.getByTestId('tile-past-target')).toHaveText('1');
    await expect(page.getByTestId('tile-past-target-caption')).toHaveText('P1: 1');
    // SPEC's tiles stay as they were.
    await expect(page.getByTestId('tile-active-cases')).toHaveText('1');
    await expect(page.getByTestId('tile-active-cases-caption')).toHaveText('Waiting calls not included');
    for (const label of ['Active Cases', 'Available Ambulances', 'Busy Ambulances', 'Total Fleet']) await expect(page.getByTestId(`tile-${label}`)).toBeVisible();
    await page.screenshot({ path: '.tmp/busy-shift/dashboard-urgent.png', fullPage: true });
    await expectNoViolations(page, 'the Dashboard, loaded');

    // The board: the P1 nobody has reached in time is the first card, above the waiting P1s.
    await page.goto('/dashboard/cases');
    await page.getByPlaceholder('Search by patient, email, description...').fill(TAG);
    const cards = page.getByTestId('case-card');
    await expect(cards).toHaveCount(4);
    expect(await cards.getByRole('heading').allTextContents()).toEqual([`${TAG} Late`, `${TAG} Waiting first`, `${TAG} Waiting second`, `${TAG} Routine`]);
    await expect(cards.first().getByTestId('call-target-state')).toHaveText('Past target');

    // Its crew reaches the scene (reported from elsewhere): its clock stops and it sinks below the
    // waiting calls, and a dispatcher's focus on it goes with it (React restores the focus of a
    // node it moves), never to <body>.
    const late = page.getByRole('article', { name: `${TAG} Late` });
    const onLate = late.getByRole('button', { name: 'View on Map' });
    await onLate.focus();
    const res = await page.request.post(`/api/ambulances/${unit.id}/unit-status`, { headers: auth(token), data: { status: 'on_scene' } });
    expect(res.ok(), await res.text()).toBeTruthy();
    await expect(late.getByTestId('call-clock')).toContainText('Response');
    await expect.poll(() => cards.getByRole('heading').allTextContents()).toEqual([`${TAG} Waiting first`, `${TAG} Waiting second`, `${TAG} Late`, `${TAG} Routine`]);
    await expect(onLate).toBeFocused();
  });

  test('none waiting and none late are said as such; unknown while loading and after a failure, never 0', async ({ page }) => {
    await signIn(page, 'operator');
    await expect(page.getByTestId('tile-waiting-calls')).toHaveText('0');
    await expect(page.getByTestId('tile-waiting-calls-caption')).toHaveText('None waiting');
    await expect(page.getByTestId('tile-past-target-caption')).toHaveText('No open call past its target');

    const held = await hold(page, '/api/cases');
    await page.reload();
    await expect(page.getByTestId('tile-Waiting Calls')).toContainText('Loading');
    await expect(page.getByTestId('tile-waiting-calls')).toHaveCount(0);
    await expectNoViolations(page, 'the Dashboard while it loads', { ignore: held.isHeld });
    await page.unroute(apiPath('/api/cases'));
    await held.release();

    await fail(page, '/api/cases');
    await page.clock.install(); // to jump over the retry back-off, as above
    await page.reload();
    await skipTimeUntil(page, () => expect(page.getByTestId('load-failure')).toContainText('Failed to load dashboard data', { timeout: 250 }));
    await expect(page.getByTestId('tile-waiting-calls')).toHaveText('–');
    await expect(page.getByTestId('tile-past-target')).toHaveText('–');
    await expect(page.getByTestId('load-failure').getByRole('button', { name: 'Retry' })).toBeEnabled({ timeout: 15_000 });
    await expectNoViolations(page, 'the Dashboard when its load failed');
  });
});

test('keyboard only: location first, then the name; a Cardiac arrest with notes; the focus on the new call\'s link, never <body>, the header in view', async ({ page }) => {
  const token = await apiToken(page, 'operator');
  await page.setViewportSize({ width: 1280, height: 720 });
  await signIn(page, 'operator', '/dashboard/new-case');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();

  // The screen opens on the call's first question.
  const location = page.getByRole('textbox', { name: 'Location' });
  await expect(location).toBeFocused();
  await page.keyboard.type('17.4126, 78.4482');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('intake-understood')).toContainText('Location:');
  // From the location, Tab passes only the location's own buttons on the way to the name.
  const stops: string[] = [];
  for (let i = 0; i < 4 && (await focusName(page)) !== 'Patient Name'; i++) {
    await page.keyboard.press('Tab');
    stops.push(await focusName(page));
  }
  expect(stops).toEqual(['Find', 'Clear location', 'Patient Name']);

  const name = `${TAG} Keyboard`;
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type('shift.keyboard@example.com');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: 'Cardiac arrest' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Breathing problems' })).toBeVisible();
  await page.keyboard.type('Card');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toHaveText('Cardiac arrest');
  await expect(page.getByRole('combobox', { name: /Priority/ })).toHaveText('1 — Life-threatening');
  // The quickest ambulance for the location is preselected; on to the notes, offered for this type too.
  const notes = page.getByRole('textbox', { name: 'Notes' });
  for (let i = 0; i < 8 && !(await notes.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(notes).toBeFocused();
  await page.keyboard.type('Not breathing, CPR in progress');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Dispatch Emergency' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(toasts(page, 'Emergency case created and ambulance assigned successfully!')).toBeVisible({ timeout: 10_000 });
  const panel = page.getByTestId('share-link-panel');
  await expect(panel).toBeFocused();
  expect(await focusName(page)).not.toBe('<body>');
  // The page did not scroll the app's header or the screen's title away.
  await expect(page.getByRole('banner')).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Emergency Response', level: 1 })).toBeInViewport();
  await page.screenshot({ path: '.tmp/busy-shift/keyboard-dispatched.png' });

  const link = (await page.getByTestId('share-link').textContent())!;
  const caseId = new URL(link).pathname.split('/location/')[1];
  await expect(page.getByTestId('share-link-title')).toHaveText(`Share-location link of ${name}'s call (case ${caseId.slice(0, 8)})`);
  const res = await page.request.get(`/api/cases/${caseId}`, { headers: auth(token) });
  expect((await res.json()).case).toMatchObject({
    patientName: name, caseType: 'Cardiac arrest', priority: 1, status: 'active', description: 'Cardiac arrest — Not breathing, CPR in progress',
  });
  await expectNoViolations(page, 'New Case after a dispatch, its link shown');
});

test('a refused dispatch leaves the focus on the button pressed, never on <body>', async ({ page }) => {
  await signIn(page, 'operator', '/dashboard/new-case');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();
  await page.getByLabel('Patient Name').fill(`${TAG} Refused`);
  await page.getByLabel('Email Address').fill('shift.refused@example.com');
  await page.getByRole('combobox', { name: /Emergency Type/ }).click();
  await page.getByRole('option', { name: 'Injury' }).click();
  await page.getByRole('combobox', { name: /Assign Ambulance/ }).click();
  await page.getByRole('option').first().click();
  await page.route('**/live-location', (route) => route.fulfill({ status: 409, json: { error: 'Ambulance TS09 EA 9999 is not available; choose another ambulance' } }));
  const dispatch = page.getByRole('button', { name: 'Dispatch Emergency' });
  await dispatch.focus();
  await page.keyboard.press('Enter');
  await expect(toasts(page, 'Ambulance TS09 EA 9999 is not available; choose another ambulance')).toBeVisible();
  await expect(dispatch).toBeFocused();
  await expect(page.getByTestId('share-link-panel')).toHaveCount(0);
});

test('the previous call\'s link is named, goes as soon as the next call is typed, and on Dismiss', async ({ page }) => {
  await signIn(page, 'operator', '/dashboard/new-case');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();

  /** Takes a call with the mouse (the keyboard has its own test) and queues it: no ambulance needed. */
  const queueCall = async (patient: string) => {
    await page.getByLabel('Patient Name').fill(patient);
    await page.getByLabel('Email Address').fill('shift.link@example.com');
    await page.getByRole('combobox', { name: /Emergency Type/ }).click();
    await page.getByRole('option', { name: 'Breathing problems' }).click();
    await page.getByRole('button', { name: 'Queue call' }).click();
    await expect(toasts(page, 'Call queued — P1, waiting for an ambulance')).toBeVisible();
  };

  const panel = page.getByTestId('share-link-panel');
  await queueCall(`${TAG} First caller`);
  await expect(panel).toBeFocused();
  await expect(page.getByTestId('share-link-title')).toHaveText(new RegExp(`^Share-location link of ${TAG} First caller's call \\(case [0-9a-f]{8}\\)$`));
  await expect(panel).toContainText('The call is queued.');
  await expect(panel).toContainText('It is removed when you start the next call.');
  await expect(page.getByRole('region', { name: new RegExp(`${TAG} First caller's call`) })).toBeVisible();

  // The next caller's first words: the old link is gone before it can be read out as theirs.
  await page.getByRole('textbox', { name: 'Location' }).focus();
  await page.keyboard.type('1');
  await expect(panel).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Location' }).fill('');

  await queueCall(`${TAG} Second caller`);
  await expect(page.getByTestId('share-link-title')).toContainText(`${TAG} Second caller's call`);
  await page.getByRole('button', { name: `Dismiss the link of ${TAG} Second caller's call` }).click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Location' })).toBeFocused();
});
