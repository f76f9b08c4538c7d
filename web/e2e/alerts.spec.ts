import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, dispatchCase, recordTones, signIn, settled, skipTimeUntil, storeSession } from './helpers';

noOpenCallsAroundEachTest();

const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** What the page recorded: oscillators started, notifications shown, permission requests. */
interface Recorded { audio: { hz: number; type: string }[]; notifications: { title: string; body: string }[]; permissionAsks: number }

/**
 * Test-side instrumentation, before any page script: AudioContext wrapped to record each
 * oscillator's start, a stand-in Notification that records what is shown and counts permission
 * requests, and a switchable document.hidden (headless Chromium's tab is always visible).
 */
async function instrument(page: Page) {
  await recordTones(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __notifications: unknown[]; __permissionAsks: number; __hidden: boolean };
    w.__notifications = [];
    w.__permissionAsks = 0;
    w.__hidden = false;
    let permission: NotificationPermission = 'default';
    class FakeNotification {
      static get permission() { return permission; }
      static async requestPermission() {
        w.__permissionAsks += 1;
        permission = 'granted';
        return permission;
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options?: NotificationOptions) {
        w.__notifications.push({ title, body: options?.body ?? '' });
      }
      close() {}
    }
    (window as unknown as { Notification: unknown }).Notification = FakeNotification;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => w.__hidden });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (w.__hidden ? 'hidden' : 'visible') });
  });
}

const recorded = (page: Page) => page.evaluate((): Recorded => {
  const w = window as unknown as { __tones: Recorded['audio']; __notifications: Recorded['notifications']; __permissionAsks: number };
  return { audio: w.__tones, notifications: w.__notifications, permissionAsks: w.__permissionAsks };
});

const setHidden = (page: Page, hidden: boolean) => page.evaluate((h) => {
  (window as unknown as { __hidden: boolean }).__hidden = h;
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);

/** axe with the pointer off the header (a hover tooltip lives outside the landmarks), every violation listed. */
const AXE = { pointerAt: { x: 640, y: 600 }, soft: true };

/** Another staff member takes a call (POST /api/cases as the demo admin). */
async function createCase(page: Page, token: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await page.request.post('/api/cases', { headers: auth(token), data: { to: `alert.${run.toLowerCase()}@example.com`, ...body } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).case;
}

test('a call taken by someone else alerts: notice, sound, flashing title, desktop notification; mute keeps only the notice, and lasts', async ({ page }) => {
  await instrument(page);
  const admin = await apiToken(page, 'admin');
  await signIn(page, 'operator');
  await page.getByRole('link', { name: 'Cases', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/cases$/);

  // Nothing alerts for the calls already there, and the browser is not asked on load.
  await expect(page.getByTestId('call-alert')).toHaveCount(0);
  expect((await recorded(page)).permissionAsks).toBe(0);
  await page.getByRole('button', { name: 'Enable desktop alerts' }).click();
  await expect(page.getByRole('button', { name: 'Enable desktop alerts' })).toHaveCount(0);
  expect((await recorded(page)).permissionAsks).toBe(1);

  const mute = page.getByRole('button', { name: 'Mute alerts' });
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  const pageTitle = await page.title();

  await setHidden(page, true);
  const first = `E2E Alert One ${run}`;
  await createCase(page, admin, { patientName: first, description: 'Heart Attack', caseType: 'Heart Attack', priority: 1 });
  const notice = page.getByRole('alert').filter({ hasText: first });
  await expect(notice).toHaveText(`New P1 call (Life-threatening): Heart Attack — ${first}`);
  const afterFirst = await recorded(page);
  // Priority 1's own pattern: the high square-wave two-tone.
  expect(afterFirst.audio.length).toBeGreaterThanOrEqual(6);
  expect(afterFirst.audio[0]).toEqual({ hz: 1175, type: 'square' });
  expect(afterFirst.notifications).toEqual([{ title: 'New P1 call', body: `New P1 call (Life-threatening): Heart Attack — ${first}` }]);
  // The title flashes while hidden: the alert, then the page's own title, then the alert again.
  await expect.poll(() => page.title()).toBe('(!) New P1 call');
  await expect.poll(() => page.title(), { timeout: 3000 }).toBe(pageTitle);
  await expect.poll(() => page.title(), { timeout: 3000 }).toBe('(!) New P1 call');
  await page.screenshot({ path: '.tmp/alerts-new-call.png' });
  await setHidden(page, false);
  await expect.poll(() => page.title()).toBe(pageTitle);
  await page.waitForTimeout(1500);
  expect(await page.title()).toBe(pageTitle);

  await test.step('muted: the notice still shows, no sound, no notification', async () => {
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await setHidden(page, true);
    const second = `E2E Alert Two ${run}`;
    await createCase(page, admin, { patientName: second, description: 'Accident', caseType: 'Accident', priority: 2 });
    await expect(page.getByRole('alert').filter({ hasText: second })).toHaveText(`New P2 call (Emergency): Accident — ${second}`);
    await expectNoViolations(page, 'the board with a P1 and a P2 notice, muted', AXE);
    await page.waitForTimeout(300);
    const afterSecond = await recorded(page);
    expect(afterSecond.audio).toHaveLength(afterFirst.audio.length);
    expect(afterSecond.notifications).toHaveLength(1);
    await setHidden(page, false);
  });

  await test.step('the mute lasts across a reload, and a reload alerts nothing old', async () => {
    await page.reload();
    await expect(page.getByRole('button', { name: 'Mute alerts' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('call-alert')).toHaveCount(0);
    await page.getByRole('button', { name: 'Mute alerts' }).click();
    await expect(page.getByRole('button', { name: 'Mute alerts' })).toHaveAttribute('aria-pressed', 'false');
  });

  await test.step('no alert for the operator\'s own call', async () => {
    const own = await apiToken(page, 'operator');
    const mine = `E2E Alert Own ${run}`;
    await createCase(page, own, { patientName: mine, description: 'Stroke', priority: 1 });
    const third = `E2E Alert Three ${run}`;
    await createCase(page, admin, { patientName: third, description: 'Fall', priority: 3 });
    await expect(page.getByRole('alert').filter({ hasText: third })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: mine })).toHaveCount(0);
    // A lower priority's chime: sine tones, not priority 1's square ones.
    expect((await recorded(page)).audio[0]).toEqual({ hz: 660, type: 'sine' });
  });
});

test('an ambulance freed while calls wait: "is free — N calls waiting", and its one action takes the oldest most urgent call', async ({ page }) => {
  await instrument(page);
  const admin = await apiToken(page, 'admin');
  const operator = await apiToken(page, 'operator');
  const plate = `E2E AL ${run}`;
  const created = await page.request.post('/api/ambulances', { headers: auth(admin), data: { license_plate: plate, status: 'available' } });
  expect(created.status(), await created.text()).toBe(201);
  const ambulanceId: number = (await created.json()).ambulance.id;
  const held = await dispatchCase(page, admin, { to: `held.${run.toLowerCase()}@example.com`, patientName: `E2E Held ${run}`, description: 'Injury', ambulanceId });

  // The queue, taken by the operator (their own calls: no new-call alerts), before the board opens.
  const minAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  const olderP2 = await createCase(page, operator, { status: 'pending', priority: 2, patientName: `E2E Wait P2 ${run}`, description: 'Injury', call_received_at: minAgo(20) });
  const oldestP1 = await createCase(page, operator, { status: 'pending', priority: 1, patientName: `E2E Wait P1 old ${run}`, description: 'Stroke', call_received_at: minAgo(6.2) });
  const newerP1 = await createCase(page, operator, { status: 'pending', priority: 1, patientName: `E2E Wait P1 new ${run}`, description: 'Stroke', call_received_at: minAgo(2) });
  const queued: string[] = [];
  const list = await page.request.get('/api/cases', { headers: auth(admin) });
  const waiting = ((await list.json()).cases as { status: string }[]).filter((c) => c.status === 'pending').length;
  expect(waiting).toBeGreaterThanOrEqual(3);

  await signIn(page, 'operator');
  await page.getByRole('link', { name: 'Cases', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Cases', exact: true })).toHaveAttribute('aria-current', 'page');
  // The board's lists answered and its live connection up: whatever they would alert has shown.
  await settled(page);
  await expect(page.getByTestId('call-alert')).toHaveCount(0);
  await expect(page.getByTestId('unit-free-alert')).toHaveCount(0);

  // The crew clears: someone else's action, so it alerts.
  const cleared = await page.request.post(`/api/ambulances/${ambulanceId}/unit-status`, { headers: auth(admin), data: { status: 'cleared' } });
  expect(cleared.status(), await cleared.text()).toBe(200);

  const notice = page.getByTestId('unit-free-alert');
  await expect(notice).toContainText(`${plate} is free — ${waiting} calls waiting, oldest P1 6 min`);
  await expect(notice).toHaveAttribute('role', 'alert');
  expect((await recorded(page)).audio[0]).toEqual({ hz: 1175, type: 'square' });
  await page.screenshot({ path: '.tmp/alerts-unit-free.png' });
  await expectNoViolations(page, 'the board with a free-unit notice', AXE);

  const action = notice.getByRole('button', { name: `Assign ${plate} to oldest P1 call` });
  await expect(notice.getByRole('button')).toHaveCount(2); // the action and the close button

  await test.step('a refusal shows the server\'s words and keeps the notice', async () => {
    // The race itself (another dispatcher's press landing first) is the server's to test; here its answer is staged.
    const refusal = `Ambulance ${plate} is not available; choose another ambulance`;
    await page.route(`**/api/cases/${oldestP1.id}/dispatch`, (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: refusal }) }), { times: 1 });
    await action.click();
    await expect(notice).toContainText(refusal);
  });

  await action.click();
  await expect(notice).toHaveCount(0);

  const cases = ((await (await page.request.get('/api/cases', { headers: auth(admin) })).json()).cases) as { id: string; status: string; ambulance_id: number | null }[];
  const byId = (id: string) => cases.find((c) => c.id === id);
  expect(byId(oldestP1.id)).toMatchObject({ status: 'active', ambulance_id: ambulanceId });
  expect(byId(newerP1.id)).toMatchObject({ status: 'pending', ambulance_id: null });
  expect(byId(olderP2.id)).toMatchObject({ status: 'pending', ambulance_id: null });
  expect(byId(held)?.status).toBe('resolved');
  await page.screenshot({ path: '.tmp/alerts-assigned.png' });

  await test.step('a waiting call alerts when it crosses its priority\'s threshold, even the operator\'s own', async () => {
    const config = await (await page.request.get('/api/config')).json() as { priorities: { priority: number; queue_alert_s: number }[] };
    const threshold = config.priorities.find((p) => p.priority === 2)!.queue_alert_s;
    const name = `E2E Wait Soon ${run}`;
    const soon = await createCase(page, operator, {
      status: 'pending', priority: 2, patientName: name, description: 'Injury',
      call_received_at: new Date(Date.now() - (threshold - 3) * 1000).toISOString(),
    });
    // With other calls waiting, its alert is the queue's one notice: how many wait, and the most urgent's wait (issue 25).
    const waitNotice = page.getByTestId('call-alert').filter({ hasText: 'calls waiting' });
    await expect(waitNotice).toHaveCount(0);
    await expect(waitNotice).toHaveText(new RegExp(`^${waiting} calls waiting, oldest P1 \\d+ min$`), { timeout: 10_000 });
    await expect(waitNotice).toHaveAttribute('data-priority', '1');
    queued.push(soon.id);
  });

  // Clean-up: the calls this test queued are closed (a later file may count the queue).
  for (const id of [oldestP1.id, newerP1.id, olderP2.id, ...queued]) {
    const res = await page.request.put(`/api/cases/${id}`, { headers: auth(admin), data: { status: 'closed' } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
});

test('on a phone-sized window the header keeps the alert switches in view without overflowing', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 700 });
  await signIn(page, 'operator');
  const banner = page.getByRole('banner');
  await expect(page.getByTestId('connection-indicator')).toHaveText('Live');
  for (const name of ['Mute alerts', 'Enable desktop alerts', 'Toggle dark mode']) await expect(banner.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: '.tmp/alerts-narrow-header.png' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('on a phone-sized window the header fits while the live connection is down too ("Reconnecting" is the wider chip)', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 700 });
  await storeSession(page, 'operator');
  await page.clock.install();
  await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
  await page.route('**/socket.io/**', (route) => route.abort('failed'));
  await page.goto('/dashboard');
  // The header waits five seconds for a first connection before it calls the socket down.
  await skipTimeUntil(page, () => expect(page.getByTestId('connection-indicator')).toHaveText('Reconnecting', { timeout: 250 }));
  const banner = page.getByRole('banner');
  for (const name of ['Mute alerts', 'Enable desktop alerts', 'Toggle dark mode']) await expect(banner.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  await expect(banner.getByTestId('connection-indicator')).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: '.tmp/alerts-narrow-header-offline.png' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
