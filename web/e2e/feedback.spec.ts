import { expect, test, type Locator, type Page } from './fixtures';
import { animationsDone, apiToken, closeCase, dispatchCase, freeAmbulance, signIn } from './helpers';

// Issue 13, "Feedback a dispatcher can act on". Ambulances used here: TS09 EA 1005 and 1006.
const PLATE_CASE = 'TS09 EA 1005';
const PLATE_OTHER = 'TS09 EA 1006';
const run = Date.now().toString(36).slice(-5).toUpperCase();
const shots = (name: string) => `.tmp/feedback-${name}.png`;

const toasts = (page: Page, text: string) => page.locator('#notistack-snackbar').filter({ hasText: text });

/** Whether two boxes overlap. */
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether a click at the middle of `target` reaches it (nothing lies on top of it). */
async function reachable(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit != null && (hit === el || el.contains(hit));
  });
}

test.describe('New Case: a refused submit says what to fix', () => {
  test('marks each invalid field, focuses the first, and shows the toast once for three presses', async ({ page }) => {
    await signIn(page, 'operator', '/dashboard/new-case');
    const name = page.getByRole('textbox', { name: 'Patient Name' });
    const email = page.getByRole('textbox', { name: 'Email Address' });
    await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();
    await email.fill('ravi.example.com');
    const dispatch = page.getByRole('button', { name: 'Dispatch Emergency' });
    for (let i = 0; i < 3; i += 1) await dispatch.click();

    await expect(toasts(page, 'Please fill all required fields')).toHaveCount(1);
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription("Enter the patient's name");
    // The malformed e-mail is told at the field, not only by the general toast.
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/not a valid e-mail address/);
    await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toHaveAttribute('aria-invalid', 'true');
    await animationsDone(page); // the toast's entrance
    await page.screenshot({ path: shots('new-case-invalid') });

    // Typing clears the mark of the field it fixes; the next press goes to the next problem.
    await name.fill('Ravi Kumar');
    await expect(name).not.toHaveAttribute('aria-invalid', 'true');
    await dispatch.click();
    await expect(email).toBeFocused();
    await expect(toasts(page, 'Please fill all required fields')).toHaveCount(1);
    // A select can take the focus too.
    await email.fill('ravi@example.com');
    await dispatch.click();
    await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toBeFocused();
  });

  test("a top toast leaves the header's user badge uncovered", async ({ page }) => {
    await signIn(page, 'operator', '/dashboard/new-case');
    await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();
    await page.getByRole('button', { name: 'Dispatch Emergency' }).click();
    const toast = toasts(page, 'Please fill all required fields');
    await expect(toast).toBeVisible();
    await animationsDone(page);
    const header = (await page.getByRole('banner').boundingBox())!;
    const box = (await toast.boundingBox())!;
    expect(overlaps(header, box), `toast ${JSON.stringify(box)} over header ${JSON.stringify(header)}`).toBe(false);
    await expect(page.getByRole('banner').getByText('Operator', { exact: true }).first()).toBeVisible();
    expect(await reachable(page.getByRole('banner').locator('.MuiAvatar-root'))).toBe(true);
  });
});

test('admin: a bottom toast leaves the last row\'s edit and delete buttons clickable', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 480 });
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Manage Ambulances' }).click();
  const table = page.getByRole('table', { name: /Ambulances/ });
  const last = table.getByRole('row').last();
  await expect(last.getByRole('button', { name: /^Edit ambulance/ })).toBeVisible();

  // A toast: save the last ambulance unchanged.
  await last.getByRole('button', { name: /^Edit ambulance/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Ambulance' });
  await dialog.getByRole('button', { name: 'Update Ambulance' }).click();
  await expect(dialog).toBeHidden();
  const toast = toasts(page, 'Ambulance updated successfully');
  await expect(toast).toBeVisible();

  // The page is taller than the window: scrolled to its end, the last row sits clear of the toast.
  expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await animationsDone(page);
  await page.screenshot({ path: shots('admin-toast-last-row') });
  for (const name of [/^Edit ambulance/, /^Delete ambulance/]) {
    const button = last.getByRole('button', { name });
    expect(overlaps((await button.boundingBox())!, (await toast.boundingBox())!)).toBe(false);
    expect(await reachable(button), `${name} reachable`).toBe(true);
  }
  await last.getByRole('button', { name: /^Edit ambulance/ }).click({ timeout: 2000 });
  await expect(toast).toBeVisible(); // the click happened while the toast was up
  await expect(dialog).toBeVisible();
});

test('Edit Case dialog: fixed title, whole ambulance label, only ambulances that can take the case, a timeline in words', async ({ page, defer }) => {
  const op = await apiToken(page, 'operator');
  const mine = await freeAmbulance(page, op, PLATE_CASE);
  const taken = await freeAmbulance(page, op, PLATE_OTHER);
  const patient = `E2E Feedback ${run}`;
  const caseId = await dispatchCase(page, op, { to: `feedback.${run.toLowerCase()}@example.com`, patientName: patient, description: 'Fell from a ladder, conscious, bleeding from the head; neighbour waiting at the gate', ambulanceId: mine.id });
  const other = await dispatchCase(page, op, { to: `feedback.other.${run.toLowerCase()}@example.com`, patientName: `E2E Other ${run}`, description: 'Stroke', ambulanceId: taken.id });
  const sent = await page.request.post('/api/tracking/initiate', { headers: { authorization: `Bearer ${op}` }, data: { caseId, ambulanceId: mine.id } });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  defer(async () => {
    await closeCase(page, op, caseId);
    await closeCase(page, op, other);
  });
  await page.setViewportSize({ width: 800, height: 500 });
  await signIn(page, 'admin', '/admin-dashboard/cases');
  const row = page.locator(`tr[data-case-id="${caseId}"]`);
  await row.getByRole('button', { name: `Edit case of ${patient}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Case Information' });
  await expect(dialog).toBeVisible();

  // The chosen ambulance's label is read in full.
  const select = dialog.getByRole('combobox', { name: 'Assigned Ambulance' });
  await expect(select).toHaveText(`${PLATE_CASE} (Currently assigned)`);
  expect(await select.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1)).toBe(true);

  // Only ambulances that can take the case: the available ones and the current one.
  await select.click();
  const offered = (await page.getByRole('option').allTextContents()).filter((t) => t !== 'Select an ambulance');
  const fleet: { license_plate: string; status: string }[] = (await (await page.request.get('/api/ambulances', { headers: { authorization: `Bearer ${op}` } })).json()).ambulances;
  expect(offered).toContain(`${PLATE_CASE} (Currently assigned)`);
  expect(offered).not.toContain(PLATE_OTHER);
  for (const label of offered.filter((t) => !t.endsWith('(Currently assigned)'))) {
    expect(fleet.find((a) => a.license_plate === label)?.status, label).toBe('available');
  }
  await page.keyboard.press('Escape');

  // The timeline, open, makes the body scroll; the title and close button stay in view.
  await dialog.getByRole('button', { name: 'Case timeline' }).click();
  const entries = dialog.getByRole('list', { name: 'Case timeline entries' });
  await expect(entries).toContainText('Tracking links sent');
  await expect(entries).toContainText(`Ambulance: ${PLATE_CASE}`);
  await expect(entries).toContainText('Driver e-mail: ');
  await expect(entries).not.toContainText(/driver_email|patient_email|ambulance_id|_/);
  const body = dialog.getByTestId('edit-case-body');
  expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await animationsDone(page);
  await page.screenshot({ path: shots('edit-case-scrolled') });
  await expect(dialog.getByRole('heading', { name: 'Edit Case Information' })).toBeInViewport();
  const close = dialog.getByRole('button', { name: 'Close', exact: true });
  expect(await reachable(close)).toBe(true);
  expect(await reachable(dialog.getByRole('button', { name: 'Update Case' }))).toBe(true);
  await close.click();
  await expect(dialog).toBeHidden();
});

test.describe('a page that is not there, or not yours, says so', () => {
  test('an operator on an admin URL is told, stays signed in, and gets back to the dashboard', async ({ page }) => {
    await signIn(page, 'operator');
    for (const path of ['/admin-dashboard', '/admin-dashboard/operators']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'This page is for administrators' })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await page.screenshot({ path: shots('operator-on-admin-url') });
    expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeTruthy();
    await page.getByRole('link', { name: 'Back to your dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'New Case' })).toBeVisible();
  });

  test('an unknown /dashboard/… path shows a not-found screen inside the app frame', async ({ page }) => {
    await signIn(page, 'operator', '/dashboard/no-such-screen');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('/dashboard/no-such-screen');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'New Case' })).toBeVisible();
    await page.screenshot({ path: shots('dashboard-not-found') });
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an unknown /admin-dashboard/… path too', async ({ page }) => {
    await signIn(page, 'admin', '/admin-dashboard/nothing-here');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'All Cases' })).toBeVisible();
  });
});

test('a staff deep link shows a loading shell at once, before any script has run', async ({ page }) => {
  await signIn(page, 'operator');
  // Hold every script: what shows is what the HTML alone paints.
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard/cases', { waitUntil: 'commit' });
  const shell = page.getByRole('status');
  await expect(shell).toHaveText('Loading…');
  await expect(shell).toBeVisible();
  await page.screenshot({ path: shots('boot-shell') });
  release();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'New Case' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Loading…')).toHaveCount(0);
});

test('a staff deep link never goes blank while the app\'s code arrives', async ({ page }) => {
  await signIn(page, 'operator');
  // Every animation frame, what #root shows; the scripts come slowly, one by one.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const frame = () => {
      const text = (document.getElementById('root')?.innerText ?? '').trim() || '<blank>';
      if (seen.at(-1) !== text) seen.push(text);
      if (!text.includes('Dispatch Console')) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await route.continue();
  });
  await page.goto('/dashboard/cases');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'New Case' })).toBeVisible({ timeout: 15_000 });
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen[0]).toBe('Loading…');
  expect(seen, seen.join(' | ')).not.toContain('<blank>');
});

test('the public location page shows the same neutral shell before its script runs', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/location/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a?t=x', { waitUntil: 'commit' });
  await expect(page.getByRole('status')).toHaveText('Loading…');
  await page.screenshot({ path: shots('boot-shell-location') });
  release();
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: 15_000 });
});

/** Whether the focused element shows it: an outline, a shadow, MUI's thick focused field border or focus tint. */
const focusIsVisible = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return { ok: false, what: 'nothing focused' };
  const what = `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 30) ?? ''}`;
  const cs = getComputedStyle(el);
  if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) return { ok: true, what };
  if (cs.boxShadow && cs.boxShadow !== 'none') return { ok: true, what };
  const field = el.closest('.MuiInputBase-root');
  if (field?.classList.contains('Mui-focused')) {
    const border = field.querySelector('fieldset');
    if (border && parseFloat(getComputedStyle(border).borderTopWidth) >= 2) return { ok: true, what };
  }
  // MUI's keyboard focus: a pulsating ripple on buttons, a tinted background on menu items.
  if (el.classList.contains('Mui-focusVisible') && (el.querySelector('.MuiTouchRipple-childPulsate') || cs.backgroundColor !== 'rgba(0, 0, 0, 0)')) return { ok: true, what };
  return { ok: false, what };
});

test('keyboard only: an operator fills and dispatches a New Case with Tab, typing, arrows and Enter', async ({ page }) => {
  const op = await apiToken(page, 'operator');
  await freeAmbulance(page, op, PLATE_OTHER);
  await signIn(page, 'operator', '/dashboard/new-case');
  const name = page.getByRole('textbox', { name: 'Patient Name' });
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();

  // From the top of the page, Tab until the first field (through the sidebar and header).
  for (let i = 0; i < 40 && !(await name.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  const check = async () => {
    const f = await focusIsVisible(page);
    expect(f.ok, `visible focus on ${f.what}`).toBe(true);
  };
  await check();
  await page.keyboard.type(`E2E Keyboard ${run}`);
  await page.keyboard.press('Tab');
  await check();
  await page.keyboard.type(`keyboard.${run.toLowerCase()}@example.com`);

  // Emergency Type: open with the arrow key, move with arrows, choose with Enter.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toBeFocused();
  await check();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await check();
  await page.keyboard.press('ArrowDown'); // Medical Emergency → Accident
  await page.keyboard.press('ArrowDown'); // → Heart Attack
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toHaveText('Heart Attack');
  await expect(page.getByRole('combobox', { name: /Emergency Type/ })).toBeFocused();

  // Assign Ambulance: open with Enter, type the plate (spaces and all) to jump to it, Enter.
  await page.keyboard.press('Tab');
  const ambulance = page.getByRole('combobox', { name: /Assign Ambulance/ });
  await expect(ambulance).toBeFocused();
  await check();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.type(PLATE_OTHER, { delay: 50 });
  await expect(page.getByRole('listbox')).toBeVisible(); // a space typed into the search picks nothing
  const wanted = page.getByRole('option', { name: new RegExp(PLATE_OTHER) });
  await expect(wanted).toBeFocused();
  await check();
  await page.keyboard.press('Enter');
  await expect(ambulance).toContainText(PLATE_OTHER);

  // On to Dispatch Emergency, and Enter.
  const dispatch = page.getByRole('button', { name: 'Dispatch Emergency' });
  for (let i = 0; i < 5 && !(await dispatch.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(dispatch).toBeFocused();
  await check();
  await page.screenshot({ path: shots('keyboard-dispatch-focus') });
  await page.keyboard.press('Enter');
  await expect(toasts(page, 'Emergency case created and ambulance assigned successfully!')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('share-link')).toBeVisible();

  // Clean-up: close the case the keyboard created.
  const cases: { id: string; patientName: string }[] = (await (await page.request.get('/api/cases', { headers: { authorization: `Bearer ${op}` } })).json()).cases;
  const created = cases.find((c) => c.patientName === `E2E Keyboard ${run}`);
  expect(created).toBeTruthy();
  await closeCase(page, op, created!.id);
});
