import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { expectNoViolations } from './axe';
import { apiToken, freeAmbulance, outboxLinks, signIn, trackRequests } from './helpers';

noOpenCallsAroundEachTest();

// The hospital end (issue 30): a P1 stroke from the call to the handover, with the hospital's own page
// open in a second browser: the crew chooses the hospital and pre-alerts it, the pre-alert arrives
// live and is acknowledged, the arrival estimate moves with the ambulance, and the hospital's
// "Handover complete" stops the clock everywhere. Then the release-to-respond prompt at 45 minutes.

const run = Date.now().toString(36).slice(-5).toUpperCase();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
// Near the demo centre, so the new hospital ranks first for a call there.
const SCENE = { latitude: 17.3855, longitude: 78.4870 };

async function makeHospital(page: Page, admin: string, name: string, at: { latitude: number; longitude: number }) {
  const res = await page.request.post('/api/hospitals', { headers: auth(admin), data: { name, address: 'Test Road 1', ...at, capabilities: ['stroke', 'pci'] } });
  expect(res.status(), await res.text()).toBe(201);
  const hospital = (await res.json()).hospital as { id: number };
  const link = await page.request.post(`/api/hospitals/${hospital.id}/link`, { headers: auth(admin) });
  expect(link.ok(), await link.text()).toBeTruthy();
  const url = new URL((await link.json()).link as string);
  return { id: hospital.id, path: `${url.pathname}${url.search}`, remove: async () => { await page.request.delete(`/api/hospitals/${hospital.id}`, { headers: auth(admin) }); } };
}

test('a P1 from the call to the handover, with the hospital page open in a second browser', async ({ page, browser, defer }) => {
  test.slow();
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const unit = await freeAmbulance(page, token, 'TS09 EA 1002');
  const hospital = await makeHospital(page, admin, `Stroke Centre ${run}`, { latitude: SCENE.latitude + 0.02, longitude: SCENE.longitude + 0.02 });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const ward = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const name = `Handover Meena ${run}`;
  defer(async () => {
    await phone.close();
    await ward.close();
    await hospital.remove();
  });
  // The ambulance is at the scene's door; the call is a stroke (it needs a stroke unit).
  expect((await page.request.post(`/api/ambulances/${unit.id}/position`, { headers: auth(token), data: SCENE })).ok()).toBeTruthy();
  const created = await page.request.post('/api/cases', {
    headers: auth(token),
    data: { email: `handover.${run.toLowerCase()}@example.com`, caseType: 'Stroke', patientName: name, ambulance_id: unit.id, description: `Stroke ${run}`, intake_location: { ...SCENE, address: 'Abids Road', source: 'pin' } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const caseId = (await created.json()).case.id as string;

  // The hospital's page: nothing coming in yet.
  const hospitalPage = await ward.newPage();
  trackRequests(hospitalPage);
  await hospitalPage.goto(hospital.path);
  await expect(hospitalPage.getByTestId('hospital-name')).toHaveText(`Stroke Centre ${run}`);
  await expect(hospitalPage.getByTestId('hospital-inbound-empty')).toBeVisible();

  // The crew works the call from its driver link.
  const driverLink = (await outboxLinks(page, caseId, 'tracking-driver')).find((l) => l.startsWith(`/driver/${unit.id}?t=`))!;
  const crew = await phone.newPage();
  trackRequests(crew);
  await crew.goto(driverLink);
  const next = crew.getByTestId('driver-next-step');
  for (const step of ['En route', 'On scene']) {
    await expect(next).toHaveText(step);
    await next.click();
    await expect(crew.getByTestId('driver-unit-status')).toHaveText(step);
  }
  // On scene: the crew chooses where to go among the hospitals ranked for a stroke (those with a stroke unit first).
  const card = crew.getByRole('region', { name: 'Hospital' });
  await expect(card.getByTestId('driver-hospital-option').filter({ hasText: `Stroke Centre ${run}` })).not.toContainText('no Stroke');
  await card.getByRole('button', { name: `Take the patient to Stroke Centre ${run}` }).click();
  await expect(card.getByTestId('driver-destination')).toHaveText(`Taking the patient to Stroke Centre ${run} (Specialty centre)`);
  await expect(next).toHaveText('Transporting');
  await next.click();
  await expect(crew.getByTestId('driver-unit-status')).toHaveText('Transporting');

  // Inbound on the hospital's page, live, with its arrival estimate.
  const inbound = hospitalPage.getByTestId('hospital-inbound').getByTestId('hospital-unit');
  await expect(inbound).toHaveCount(1);
  await expect(inbound.getByTestId('hospital-unit-plate')).toContainText('TS09 EA 1002');
  const eta = inbound.getByTestId('hospital-eta');
  await expect(eta).toContainText('ETA');
  expect(Number(await eta.getAttribute('data-left'))).toBeGreaterThan(240);

  // The ATMIST pre-alert from the crew reaches the hospital at once, and is acknowledged there.
  await card.getByTestId('driver-prealert-open').click();
  const form = card.getByTestId('driver-prealert-form');
  await form.getByLabel('Age (years)').fill('67');
  await form.getByLabel('Sex').selectOption('female');
  await form.getByLabel('Mechanism / what happened').fill('Sudden left-sided weakness');
  await form.getByLabel('Heart rate (/min)').fill('92');
  await form.getByLabel('Systolic BP (mmHg)').fill('168');
  await expect(form.getByLabel('Team activation')).toHaveValue('stroke');
  await form.getByTestId('driver-prealert-send').click();
  await expect(card.getByTestId('driver-prealert-state')).toContainText('waiting for the hospital to acknowledge');
  const prealert = inbound.getByTestId('hospital-prealert');
  await expect(prealert).toContainText('67');
  await expect(prealert).toContainText('Sudden left-sided weakness');
  await expect(hospitalPage.getByText(name)).toHaveCount(0);
  await expectNoViolations(hospitalPage, 'the hospital page with a pre-alert coming in');
  await prealert.getByRole('button', { name: 'Acknowledge pre-alert for TS09 EA 1002' }).click();
  await expect(prealert.getByTestId('prealert-acknowledged')).toBeVisible();
  await expect(card.getByTestId('driver-prealert-state')).toContainText('Pre-alert acknowledged by the hospital');

  // The ambulance nears the hospital: the estimate on the hospital's page comes down.
  expect((await page.request.post(`/api/ambulances/${unit.id}/position`, {
    headers: auth(token), data: { latitude: SCENE.latitude + 0.019, longitude: SCENE.longitude + 0.019 },
  })).ok()).toBeTruthy();
  // (Minutes away, then under two: not the countdown between two reads, which moves a second a second.)
  await expect.poll(async () => Number(await eta.getAttribute('data-left')), { timeout: 30_000 }).toBeLessThan(120);

  // The board shows where the unit goes.
  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByPlaceholder('Search by patient, email, description...').fill(name);
  const board = page.getByRole('article', { name });
  await expect(board.getByTestId('unit-destination')).toContainText(`To Stroke Centre ${run} (Specialty centre)`);

  // At hospital: the clock runs on the three screens; the hospital presses Handover complete and it stops.
  await expect(next).toHaveText('At hospital');
  await next.click();
  const arrived = hospitalPage.getByTestId('hospital-arrived').getByTestId('hospital-unit');
  await expect(arrived).toHaveCount(1);
  await expect(arrived.getByTestId('handover-clock')).toContainText('Within 15 min');
  await expect(crew.getByTestId('driver-handover-clock')).toContainText('Within 15 min');
  await expect(board.getByTestId('handover-clock')).toContainText('Within 15 min');
  await expectNoViolations(hospitalPage, 'the hospital page with a unit waiting to hand over');
  await arrived.getByRole('button', { name: 'Handover complete for TS09 EA 1002' }).click();
  await expect(crew.getByTestId('driver-unit-status')).toHaveText('Handed over');
  await expect(board.getByTestId('handover-clock')).toHaveAttribute('data-done', 'true');
  await expect(arrived.getByTestId('handover-clock')).toContainText('Handed over');
  const record = (await (await page.request.get(`/api/cases/${caseId}`, { headers: auth(token) })).json()).case.assignment;
  expect(record).toMatchObject({ status: 'handover', destination: { hospital_id: hospital.id, reason: 'specialty' }, prealert: { activation: 'stroke' } });
  expect(Date.parse(record.handover_at)).toBeGreaterThanOrEqual(Date.parse(record.at_hospital_at));
  await expectNoViolations(crew, "the crew's page after the handover");

  await expect(next).toHaveText('Clear');
  await next.click();
  await crew.getByTestId('driver-confirm-clear').click();
  await expect(crew.getByTestId('driver-standby-ended')).toHaveText('Job done. This ambulance is clear of the call.', { timeout: 15_000 });
});

test('a unit waiting 45 minutes at hospital prompts "Release to respond" on the board', async ({ page, defer }) => {
  test.slow();
  const admin = await apiToken(page, 'admin');
  const token = await apiToken(page, 'operator');
  const unit = await freeAmbulance(page, token, 'TS09 EA 1006');
  const hospital = await makeHospital(page, admin, `Wall Time General ${run}`, { latitude: SCENE.latitude - 0.02, longitude: SCENE.longitude });
  const name = `Release Arjun ${run}`;
  defer(async () => {
    await hospital.remove();
  });
  const created = await page.request.post('/api/cases', {
    headers: auth(token),
    data: { email: `release.${run.toLowerCase()}@example.com`, caseType: 'Stroke', patientName: name, ambulance_id: unit.id, description: `Wall time ${run}`, intake_location: { ...SCENE, address: 'Abids Road', source: 'pin' } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const c = (await created.json()).case as { id: string; assignment: { id: number } };
  const step = async (status: string) => {
    const res = await page.request.post(`/api/ambulances/${unit.id}/unit-status`, { headers: auth(token), data: { status } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  for (const s of ['en_route', 'on_scene']) await step(s);
  const dest = await page.request.post(`/api/cases/${c.id}/assignments/${c.assignment.id}/destination`, { headers: auth(token), data: { hospital_id: hospital.id, reason: 'closest' } });
  expect(dest.ok(), await dest.text()).toBeTruthy();
  for (const s of ['transporting', 'at_hospital']) await step(s);

  // The board's clock is the page's: it is moved 46 minutes on rather than the test waiting them.
  await page.clock.install();
  await signIn(page, 'operator', '/dashboard/cases');
  await page.getByPlaceholder('Search by patient, email, description...').fill(name);
  const board = page.getByRole('article', { name });
  await expect(board.getByTestId('handover-clock')).toContainText('Within 15 min');
  const prompt = page.getByTestId('call-alerts').getByText(`Release to respond: TS09 EA 1006 at Wall Time General ${run} 45 min`);
  await expect(prompt).toHaveCount(0);
  await page.clock.fastForward('46:00');
  await expect(prompt).toBeVisible();
  await expectNoViolations(page, 'the board with a release-to-respond prompt');

  // The handover ends the prompt.
  await step('handover');
  await expect(prompt).toHaveCount(0);
});
