import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, closeCase, dispatchCase, freeAmbulance, outboxLinks } from './helpers';

noOpenCallsAroundEachTest();

// Only ambulance TS09 EA 1005 is dispatched here; the test frees it first if another run left it
// busy, and closes its case when it fails before Clear.

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const shot = (page: Page, name: string) => page.screenshot({ path: `.tmp/driver-status/${name}.png`, fullPage: true });

async function unitStatus(page: Page, token: string, ambulanceId: number): Promise<string> {
  const res = await page.request.get('/api/ambulances', { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).ambulances.find((a: { id: number }) => a.id === ambulanceId).unit_status;
}

async function caseNow(page: Page, token: string, caseId: string) {
  const res = await page.request.get(`/api/cases/${caseId}`, { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as { case: { status: string; priority: number }; assignments: { status: string; en_route_at: string | null; on_scene_at: string | null; cleared_at: string | null }[] };
}

test('the crew reports its steps with one big button, online and offline (queued with the press time, replayed), and Clear asks twice and ends the job', async ({ page, browser, defer }) => {
  test.setTimeout(90_000);
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1005');
  const caseId = await dispatchCase(page, operator, { to: 'meena.rao@example.com', patientName: 'Meena Rao', description: 'Heart Attack', ambulanceId: ambulance.id });
  const driverContext = await browser.newContext();
  let cleared = false;
  defer(async () => {
    await driverContext.close();
    if (!cleared) await closeCase(page, operator, caseId);
  });
  const urgent = await page.request.put(`/api/cases/${caseId}`, { headers: auth(operator), data: { priority: 1 } });
  expect(urgent.ok(), await urgent.text()).toBeTruthy();
  const sent = await page.request.post('/api/tracking/initiate', { headers: auth(operator), data: { caseId, ambulanceId: ambulance.id, patientEmail: '', driverEmail: '' } });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  const [driverLink] = (await outboxLinks(page, caseId, 'tracking-driver')).filter((l) => l.startsWith('/driver/'));
  expect(driverLink).toContain(`/driver/${ambulance.id}?t=`);

  // The patient's tracking link learns nothing new: no priority, no assignment.
  const [viewerLink] = (await outboxLinks(page, caseId, 'tracking-patient')).filter((l) => l.startsWith('/track/'));
  const viewer = await (await page.request.get(`/api${viewerLink}`)).json();
  expect(viewer).not.toHaveProperty('priority');
  expect(viewer).not.toHaveProperty('assignment');

  const driver = await driverContext.newPage();
  await driver.setViewportSize({ width: 390, height: 844 });
  await driver.goto(driverLink);
  await expect(driver.getByTestId('driver-priority')).toHaveText('P1 Life-threatening');
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('Dispatched');

  // One big button, big enough for a gloved thumb, named for the next step.
  const next = driver.getByTestId('driver-next-step');
  await expect(next).toHaveText('En route');
  const box = (await next.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(64);
  expect(box.width).toBeGreaterThan(300);
  await expect(driver.getByTestId('driver-skip-on_scene')).toHaveText('Skip to On scene');

  // Online: the press reaches the server at once.
  await next.click();
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('En route');
  await expect(driver.getByTestId('driver-unit-status')).toHaveAttribute('data-status', 'en_route');
  await expect.poll(() => unitStatus(page, operator, ambulance.id)).toBe('en_route');
  await expect(next).toHaveText('On scene');

  // Offline: the press waits on the phone with its time, and the button moves on.
  await driverContext.setOffline(true);
  await driver.waitForTimeout(500);
  const pressedAt = Date.now();
  await driver.getByRole('button', { name: 'On scene', exact: true }).click();
  await expect(driver.getByTestId('driver-press-queue')).toContainText('1 press waiting to send');
  await expect(driver.getByTestId('driver-press-queue')).toContainText('On scene · pressed');
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('On scene');
  await expect(driver.getByTestId('driver-unit-status')).toHaveAttribute('data-status', 'en_route');
  await expect(driver.getByTestId('driver-skip-cleared')).toHaveText('Clear on scene (no transport)');
  await shot(driver, 'offline-waiting');
  await expectNoViolations(driver, 'the driver page with a press waiting', { settle: false, soft: true });
  // Still en route on the server while the phone is offline.
  await driver.waitForTimeout(1500);
  expect(await unitStatus(page, operator, ambulance.id)).toBe('en_route');

  // Back online: the press is replayed with its press time, before the connection came back.
  const backAt = Date.now();
  await driverContext.setOffline(false);
  await expect(driver.getByTestId('driver-press-queue')).toHaveCount(0, { timeout: 15_000 });
  await expect(driver.getByTestId('driver-unit-status')).toHaveAttribute('data-status', 'on_scene');
  await expect.poll(() => unitStatus(page, operator, ambulance.id)).toBe('on_scene');
  const onScene = (await caseNow(page, operator, caseId)).assignments[0];
  expect(onScene.status).toBe('on_scene');
  expect(Date.parse(onScene.on_scene_at!)).toBeLessThanOrEqual(backAt);
  expect(Date.parse(onScene.on_scene_at!)).toBeGreaterThanOrEqual(pressedAt - 2000);

  // Treated on scene: Clear straight from the scene, asked twice.
  await driver.getByTestId('driver-skip-cleared').click();
  const confirm = driver.getByTestId('driver-confirm-clear');
  await expect(confirm).toHaveText('Confirm clear');
  expect(await unitStatus(page, operator, ambulance.id)).toBe('on_scene');
  await shot(driver, 'confirm-clear');
  await expectNoViolations(driver, 'the driver page asking to confirm Clear', { settle: false, soft: true });
  await confirm.click();
  cleared = true;
  // The job is done: the page says so, stops sharing, and waits for the ambulance's next call (crew-live.spec.ts).
  await expect(driver.getByTestId('driver-standby-ended')).toHaveText('Job done. This ambulance is clear of the call.', { timeout: 15_000 });
  await expect.poll(() => unitStatus(page, operator, ambulance.id)).toBe('available');
  const done = await caseNow(page, operator, caseId);
  expect(done.case.status).toBe('resolved');
  expect(done.assignments[0].status).toBe('cleared');
  await expect(driver.getByTestId('driver-next-step')).toHaveCount(0);
  await expect(driver.getByTestId('driver-status')).toHaveText('Location sharing has stopped.');
  await shot(driver, 'job-done');
  // The link stops working once the case is resolved.
  expect((await page.request.get(`/api${driverLink.replace('/driver/', '/track/')}`)).status()).toBe(404);
});
