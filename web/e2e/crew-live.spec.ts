import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, dispatchCase, freeAmbulance, outboxLinks, recordTones, signIn, tones } from './helpers';

noOpenCallsAroundEachTest();

// Issue 25, items 7 and 3: the crew's phone is as live as the board (a step pressed on the board shows
// on the driver page within a second), and a driver page left open after its call hears the
// ambulance's next call live, with a sound, and switches to it (diverted too).

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const shot = (page: Page, name: string) => page.screenshot({ path: `.tmp/crew-live/${name}.png`, fullPage: true });
const run = String(Date.now() % 1_000_000);

const beeps = async (page: Page) => (await tones(page)).length;

/** Sends the tracking e-mails of a case (Send Tracker) and answers its driver link as a path. */
async function driverLinkOf(page: Page, token: string, caseId: string, ambulanceId: number): Promise<string> {
  const sent = await page.request.post('/api/tracking/initiate', { headers: auth(token), data: { caseId, ambulanceId, patientEmail: '', driverEmail: '' } });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  const [link] = (await outboxLinks(page, caseId, 'tracking-driver')).filter((l) => l.startsWith('/driver/'));
  expect(link).toContain(`/driver/${ambulanceId}?t=`);
  return link;
}

test('board → phone: "Next" pressed on the board shows on the open driver page within a second', async ({ page, browser, defer }) => {
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1006');
  const patient = `E2E Crew Board ${run}`;
  const caseId = await dispatchCase(page, operator, { to: 'crew.board@example.com', patientName: patient, description: 'Fall', ambulanceId: ambulance.id });
  const link = await driverLinkOf(page, operator, caseId, ambulance.id);

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  defer(async () => {
    await phone.close();
  });
  const driver = await phone.newPage();
  await driver.goto(link);
  const status = driver.getByTestId('driver-unit-status');
  await expect(status).toHaveText('Dispatched');
  await expect(driver.getByTestId('driver-next-step')).toHaveText('En route');

  await signIn(page, 'operator', '/dashboard/cases');
  const card = page.getByTestId('case-card').filter({ hasText: patient });
  for (const [button, shown] of [['Next: En route', 'En route'], ['Next: On scene', 'On scene']] as const) {
    const pressed = page.waitForResponse((r) => r.url().includes(`/api/ambulances/${ambulance.id}/unit-status`) && r.request().method() === 'POST');
    await card.getByRole('button', { name: `${button} for ${ambulance.license_plate}` }).click();
    expect((await pressed).ok()).toBe(true);
    // A bound, not a benchmark: the phone shows the step within a second of the board's answer (it took 18 s before).
    await expect(status).toHaveText(shown, { timeout: 1000 });
  }
  await expect(driver.getByTestId('driver-next-step')).toHaveText('Transporting');
  await shot(driver, 'board-step-on-phone');
});

test('the open driver page hears its ambulance\'s next call live, with a sound, and switches to it; diverted too; muted still shows it', async ({ page, browser, defer }) => {
  test.setTimeout(90_000);
  const operator = await apiToken(page, 'operator');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1007');
  const other = await freeAmbulance(page, operator, 'TS09 EA 1008');
  const first = await dispatchCase(page, operator, { to: 'crew.first@example.com', patientName: `E2E Crew First ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  const link = await driverLinkOf(page, operator, first, ambulance.id);

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await recordTones(phone);
  defer(async () => {
    await phone.close();
  });
  const driver = await phone.newPage();
  await driver.goto(link);
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('Dispatched');

  // The crew finishes the call on the phone: the page says the job is done and waits for the next call.
  await driver.getByTestId('driver-skip-on_scene').click();
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('On scene');
  await driver.getByTestId('driver-skip-cleared').click();
  await driver.getByTestId('driver-confirm-clear').click();
  const standby = driver.getByTestId('driver-standby');
  await expect(standby).toBeVisible({ timeout: 10_000 });
  await expect(standby).toHaveAttribute('data-ended', 'cleared');
  await expect(driver.getByTestId('driver-standby-ended')).toHaveText('Job done. This ambulance is clear of the call.');
  await expect(standby.getByRole('heading', { name: 'Waiting for the next call' })).toBeVisible();
  await expect(driver.getByTestId('driver-standby-text')).toContainText(`Ambulance ${ambulance.license_plate}: keep this page open`);
  // No "link not found" beside it: one state.
  await expect(driver.getByTestId('driver-error')).toHaveCount(0);
  await shot(driver, 'standby-after-clear');
  await expectNoViolations(driver, 'the driver page waiting for the next call', { settle: false, soft: true });
  const before = await beeps(driver);

  // Another ambulance's call: nothing here.
  const elsewhere = await dispatchCase(page, operator, { to: 'crew.else@example.com', patientName: `E2E Crew Else ${run}`, description: 'Fall', ambulanceId: other.id });
  await driver.waitForTimeout(500);
  await expect(standby).toBeVisible();
  expect(await beeps(driver)).toBe(before);

  // Its own ambulance's next call: the page switches to it with a sound, on a link of its own.
  const secondName = `E2E Crew Second ${run}`;
  const second = await dispatchCase(page, operator, { to: 'crew.second@example.com', patientName: secondName, description: 'Stroke', ambulanceId: ambulance.id });
  await expect(driver.getByTestId('driver-new-call-title')).toHaveText('New call', { timeout: 5000 });
  await expect(driver.getByTestId('driver-patient')).toHaveText(secondName);
  await expect(driver.getByTestId('driver-unit-status')).toHaveText('Dispatched');
  expect(await beeps(driver)).toBeGreaterThan(before);
  const secondUrl = new URL(driver.url());
  expect(secondUrl.pathname).toBe(`/driver/${ambulance.id}`);
  expect(secondUrl.searchParams.get('t')).not.toBe(new URL(link, 'http://x').searchParams.get('t'));
  await shot(driver, 'new-call');
  await expectNoViolations(driver, 'the driver page on a new call', { settle: false, soft: true });
  // The new link drives: a press goes through.
  await driver.getByTestId('driver-next-step').click();
  await expect(driver.getByTestId('driver-unit-status')).toHaveAttribute('data-status', 'en_route');

  // Diverted: the dispatcher gives this call another unit; the page says so and waits …
  const takeOver = await freeAmbulance(page, operator, 'TS09 EA 1005');
  const moved = await page.request.put(`/api/cases/${second}`, { headers: auth(operator), data: { ambulance_id: takeOver.id } });
  expect(moved.ok(), await moved.text()).toBeTruthy();
  await expect(standby).toHaveAttribute('data-ended', 'cancelled', { timeout: 10_000 });
  await expect(driver.getByTestId('driver-standby-ended')).toHaveText('The dispatcher took this ambulance off the call.');
  await shot(driver, 'standby-taken-off');
  // … muted, the next call still shows (no sound needed for the information).
  await driver.getByTestId('driver-sound').click();
  await expect(driver.getByTestId('driver-sound')).toHaveText('Sound is off: turn it on');
  const mutedAt = await beeps(driver);
  const thirdName = `E2E Crew Third ${run}`;
  await dispatchCase(page, operator, { to: 'crew.third@example.com', patientName: thirdName, description: 'Burns', ambulanceId: ambulance.id });
  await expect(driver.getByTestId('driver-new-call-title')).toHaveText('New call: you were diverted from your previous call', { timeout: 5000 });
  await expect(driver.getByTestId('driver-patient')).toHaveText(thirdName);
  expect(await beeps(driver)).toBe(mutedAt);

  // A reload keeps the call and says "New call" no more.
  await driver.reload();
  await expect(driver.getByTestId('driver-patient')).toHaveText(thirdName);
  await expect(driver.getByTestId('driver-new-call')).toHaveCount(0);
  expect(elsewhere).not.toBe(second);
});

test('a driver link opened after its call ended waits for the next call; a deleted call\'s link does not', async ({ page, browser, defer }) => {
  const operator = await apiToken(page, 'operator');
  const admin = await apiToken(page, 'admin');
  const ambulance = await freeAmbulance(page, operator, 'TS09 EA 1004');
  const ended = await dispatchCase(page, operator, { to: 'crew.ended@example.com', patientName: `E2E Crew Ended ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  const link = await driverLinkOf(page, operator, ended, ambulance.id);
  expect((await page.request.put(`/api/cases/${ended}`, { headers: auth(operator), data: { status: 'closed' } })).ok()).toBeTruthy();
  const deleted = await dispatchCase(page, operator, { to: 'crew.deleted@example.com', patientName: `E2E Crew Deleted ${run}`, description: 'Fall', ambulanceId: ambulance.id });
  const deadLink = await driverLinkOf(page, operator, deleted, ambulance.id);
  expect((await page.request.delete(`/api/cases/${deleted}`, { headers: auth(admin) })).ok()).toBeTruthy();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  defer(async () => {
    await phone.close();
  });
  const driver = await phone.newPage();
  await driver.goto(link);
  await expect(driver.getByTestId('driver-standby')).toBeVisible();
  await expect(driver.getByTestId('driver-standby-ended')).toHaveText('The dispatcher took this ambulance off the call.');
  // Nothing of the ended call is shown: no patient, no case card.
  await expect(driver.getByTestId('driver-patient')).toHaveCount(0);

  await driver.goto(deadLink);
  await expect(driver.getByTestId('driver-error')).toContainText('Tracking link not found or expired');
  await expect(driver.getByTestId('driver-standby')).toHaveCount(0);
});
