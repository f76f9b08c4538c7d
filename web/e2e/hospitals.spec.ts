import { expectNoViolations } from './axe';
import { expect, test, type Page } from './fixtures';
import { acceptDialog, apiToken, closeCase, dispatchCase, signIn, trackRequests } from './helpers';

// Issue 30, the hospital end as people see it: an admin keeps the hospitals in Manage Hospitals and
// makes a hospital's page link; the department opens it with no sign-in, sets its diversion, sees a
// unit coming in with its ATMIST pre-alert, acknowledges it, and presses Handover complete.
// Each test makes its own hospital (and ambulance), so nothing here depends on another spec's data.

const run = Date.now().toString(36).slice(-5).toUpperCase();
const toast = (page: Page, text: string) => page.locator('#notistack-snackbar').filter({ hasText: text });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

test('an admin adds, edits and diverts a hospital, makes its link, and the hospital sets its own diversion', async ({ page, browser, defer }) => {
  const name = `E2E General ${run}`;
  const renamed = `E2E Royal General ${run}`;
  trackRequests(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Manage Hospitals' }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/hospitals$/);
  await expect(page.getByRole('heading', { name: 'Manage Hospitals' })).toBeVisible();
  await expect(page.getByTestId('hospital-total')).not.toHaveText('Total: –');

  // Add: the form says what is missing before anything is sent.
  await page.getByRole('button', { name: 'Add New Hospital' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Hospital' });
  await dialog.getByRole('button', { name: 'Add Hospital' }).click();
  await expect(dialog.getByText('Required')).toHaveCount(3);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Address').fill('1 Hospital Road, Hyderabad');
  // A pair pasted into one coordinate fills both, as a map copies it.
  await dialog.getByLabel('Latitude').focus();
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData('text', '17.4065, 78.4772');
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(dialog.getByLabel('Latitude')).toHaveValue('17.4065');
  await expect(dialog.getByLabel('Longitude')).toHaveValue('78.4772');
  await dialog.getByRole('checkbox', { name: 'Stroke' }).check();
  await dialog.getByRole('checkbox', { name: 'Heart attack (PCI)' }).check();
  await expect(dialog.getByRole('radio', { name: 'Open' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add Hospital' }).click();
  await expect(toast(page, 'Hospital added successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.locator('tr').filter({ hasText: name });
  await expect(row).toContainText('Stroke, Heart attack (PCI)');
  await expect(row).toContainText('Open');
  await expect(row).toContainText('17.40650, 78.47720');
  await expect(row).toContainText('Set by Admin');
  await expect(row).toContainText('None yet');

  // Edit: a new name, trauma too; then on diversion, which needs its reason.
  await row.getByRole('button', { name: `Edit hospital ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Hospital' });
  await expect(edit.getByLabel('Name')).toHaveValue(name);
  await expect(edit.getByTestId('hospital-status-line')).toContainText('Set by Admin');
  await edit.getByLabel('Name').fill(renamed);
  await edit.getByRole('checkbox', { name: 'Trauma' }).check();
  await edit.getByRole('button', { name: 'Update Hospital' }).click();
  await expect(toast(page, 'Hospital updated successfully')).toBeVisible();
  const renamedRow = page.locator('tr').filter({ hasText: renamed });
  await expect(renamedRow).toContainText('Stroke, Heart attack (PCI), Trauma');

  await renamedRow.getByRole('button', { name: `Edit hospital ${renamed}` }).click();
  await edit.getByRole('radio', { name: 'On diversion' }).check();
  await edit.getByRole('button', { name: 'Update Hospital' }).click();
  await expect(edit.getByText('Say why the hospital is on diversion')).toBeVisible();
  await edit.getByRole('textbox', { name: 'Reason for diversion' }).fill('CT scanner down');
  await expectNoViolations(page, 'the Edit Hospital dialog');
  await edit.screenshot({ path: '.tmp/hospitals-edit-dialog.png' });
  await edit.getByRole('button', { name: 'Update Hospital' }).click();
  await expect(edit).toBeHidden();
  await expect(renamedRow).toContainText('On diversion');
  await expect(renamedRow).toContainText('CT scanner down');
  await expect(page.getByTestId('hospital-diverting')).toBeVisible();
  await expectNoViolations(page, 'Manage Hospitals', { pointerAt: { x: 1, y: 1 } });

  // The link: asked first, then shown once with Copy.
  await renamedRow.getByRole('button', { name: `Make page link for hospital ${renamed}` }).click();
  const linkDialog = page.getByRole('dialog', { name: `Make a page link for ${renamed}?` });
  await linkDialog.getByRole('button', { name: 'Make link' }).click();
  const shown = page.getByRole('dialog', { name: `Page link for ${renamed}` });
  await expect(shown.getByText('Shown only once')).toBeVisible();
  const link = (await shown.getByTestId('hospital-link').textContent())!;
  expect(link).toMatch(/\/hospital\/\d+\?t=[\w%-]+$/);
  await shown.getByRole('button', { name: 'Copy link' }).click();
  await expect(shown.getByRole('button', { name: 'Link copied' })).toBeVisible();
  await expectNoViolations(page, 'the hospital link dialog');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  await expect(renamedRow).toContainText('Made');
  await page.screenshot({ path: '.tmp/hospitals-manage.png', fullPage: true });

  // The department opens it: a browser with no session.
  const department = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  defer(async () => {
    await department.close();
  });
  const hospitalPage = await department.newPage();
  trackRequests(hospitalPage);
  const url = new URL(link);
  await hospitalPage.goto(url.pathname + url.search);
  await expect(hospitalPage.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(hospitalPage.getByTestId('hospital-connection')).toHaveText('Live');
  await expect(hospitalPage.getByTestId('hospital-inbound-empty')).toHaveText('No ambulances are coming in.');
  await expect(hospitalPage.getByTestId('hospital-status-now')).toHaveAttribute('data-status', 'diversion');
  await expect(hospitalPage.getByTestId('hospital-status-reason')).toHaveText('CT scanner down');
  await expectNoViolations(hospitalPage, 'the hospital page (empty)');

  // Reopen from the page; the admin's screen follows live.
  await hospitalPage.getByRole('radio', { name: 'Open' }).check();
  await hospitalPage.getByRole('button', { name: 'Open to ambulances' }).click();
  await expect(hospitalPage.getByTestId('hospital-status-now')).toHaveAttribute('data-status', 'open');
  await expect(renamedRow.getByText('Open', { exact: true })).toBeVisible();
  await expect(renamedRow).toContainText('Set by Hospital');

  // Divert again: a reason is asked for first.
  await hospitalPage.getByRole('radio', { name: 'On diversion' }).check();
  await hospitalPage.getByRole('button', { name: 'Put on diversion' }).click();
  await expect(hospitalPage.getByRole('alert').filter({ hasText: 'Say why the hospital is on diversion.' })).toBeVisible();
  await hospitalPage.getByLabel('Reason for diversion (required)').fill('No beds in resus');
  await hospitalPage.getByRole('button', { name: 'Put on diversion' }).click();
  await expect(hospitalPage.getByTestId('hospital-status-saved')).toBeVisible();
  await expect(hospitalPage.getByTestId('hospital-status-reason')).toHaveText('No beds in resus');
  await expect(renamedRow).toContainText('No beds in resus');
  await expect(renamedRow).toContainText('Set by Hospital');
  await expectNoViolations(hospitalPage, 'the hospital page on diversion');
  await hospitalPage.screenshot({ path: '.tmp/hospitals-page-empty.png', fullPage: true });

  // A new link replaces the old one: the open page says its link is dead.
  await renamedRow.getByRole('button', { name: `Make page link for hospital ${renamed}` }).click();
  const again = page.getByRole('dialog', { name: `Make a page link for ${renamed}?` });
  await expect(again).toContainText('A new link replaces the old one');
  await again.getByRole('button', { name: 'Make a new link' }).click();
  await page.getByRole('dialog', { name: `Page link for ${renamed}` }).getByRole('button', { name: 'Done' }).click();
  await expect(hospitalPage.getByTestId('hospital-dead-link')).toHaveText('This hospital link is not valid. Ask the ambulance service for a new one.');
  await expectNoViolations(hospitalPage, 'the hospital page with a dead link');

  // Delete: asked first.
  const ask = await acceptDialog(page, () => renamedRow.getByRole('button', { name: `Delete hospital ${renamed}` }).click());
  expect(ask).toBe('Are you sure you want to delete this hospital?');
  await expect(toast(page, 'Hospital deleted successfully')).toBeVisible();
  await expect(renamedRow).toHaveCount(0);
});

test('the hospital page shows a unit coming in with its pre-alert, then the handover clock, and records the handover', async ({ page, browser, defer }) => {
  const admin = await apiToken(page, 'admin');
  const made = await page.request.post('/api/hospitals', {
    headers: auth(admin), data: { name: `E2E St Mary ${run}`, address: '2 Clinic Lane', latitude: 17.44, longitude: 78.5, capabilities: ['pci', 'stroke'] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const hospital = (await made.json()).hospital as { id: number; name: string };
  const plate = `E2E HOSP ${run}`;
  const amb = await page.request.post('/api/ambulances', { headers: auth(admin), data: { license_plate: plate, latitude: 17.40, longitude: 78.47 } });
  expect(amb.status(), await amb.text()).toBe(201);
  const ambulanceId = (await amb.json()).ambulance.id as number;
  const caseId = await dispatchCase(page, admin, { to: `hospital.e2e.${run.toLowerCase()}@example.com`, patientName: `E2E Hospital Patient ${run}`, description: 'Chest pain', ambulanceId });
  const detail = await (await page.request.get(`/api/cases/${caseId}`, { headers: auth(admin) })).json();
  const assignmentId = (detail.case ?? detail).assignments.find((a: { ambulance_id: number }) => a.ambulance_id === ambulanceId).id as number;
  const step = async (status: string) => {
    const res = await page.request.post(`/api/ambulances/${ambulanceId}/unit-status`, { headers: auth(admin), data: { status } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  const link = (await (await page.request.post(`/api/hospitals/${hospital.id}/link`, { headers: auth(admin) })).json()).link as string;

  const department = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  defer(async () => {
    await department.close();
    await closeCase(page, admin, caseId).catch(() => {});
    await page.request.delete(`/api/hospitals/${hospital.id}`, { headers: auth(admin) });
    await page.request.delete(`/api/ambulances/${ambulanceId}`, { headers: auth(admin) });
  });
  for (const s of ['en_route', 'on_scene', 'transporting']) await step(s);
  const position = await page.request.post(`/api/ambulances/${ambulanceId}/position`, { headers: auth(admin), data: { latitude: 17.41, longitude: 78.48 } });
  expect(position.ok(), await position.text()).toBeTruthy();
  const dest = await page.request.post(`/api/cases/${caseId}/assignments/${assignmentId}/destination`, { headers: auth(admin), data: { hospital_id: hospital.id, reason: 'specialty' } });
  expect(dest.ok(), await dest.text()).toBeTruthy();

  const hp = await department.newPage();
  trackRequests(hp);
  const url = new URL(link);
  // A failed load says so with Try again (not the dead link's words), and loads on it.
  await hp.route('**/api/hospital/*', (route) => route.fulfill({ status: 503, json: { error: 'Service unavailable' } }));
  await hp.goto(url.pathname + url.search);
  await expect(hp.getByTestId('hospital-error')).toContainText("Could not load this hospital's page", { timeout: 20_000 });
  await expectNoViolations(hp, 'the hospital page that could not load', { ignore: (r) => r.url().includes('/api/hospital/') });
  await hp.unroute('**/api/hospital/*');
  await hp.getByRole('button', { name: 'Try again' }).click();
  const unit = hp.getByTestId('hospital-inbound').getByTestId('hospital-unit');
  await expect(unit.getByTestId('hospital-unit-plate')).toHaveText(plate);
  await expect(unit.getByTestId('hospital-eta')).toContainText(/ETA \d+:\d\d/);
  await expect(unit).toContainText('No pre-alert sent.');
  await expect(hp.getByTestId('hospital-connection')).toHaveText('Live');

  // The crew's pre-alert reaches the page live, announced, in ATMIST order.
  const sent = await page.request.post(`/api/cases/${caseId}/assignments/${assignmentId}/prealert`, {
    headers: auth(admin),
    data: {
      age: 67, sex: 'male', mechanism: 'Collapsed at home, central chest pain 40 min', injuries: 'None seen',
      signs: { hr: 112, sbp: 92, rr: 24, spo2: 91, gcs: 14, temp: 37.1 }, treatment: 'Aspirin 300 mg, GTN', requirements: 'Cath lab on arrival', activation: 'stemi',
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await expect(hp.getByTestId('hospital-announcer')).toContainText(`New pre-alert: ${plate}, P`);
  await expect(hp.getByTestId('hospital-announcer')).toContainText('STEMI');
  const atmist = unit.getByTestId('hospital-atmist');
  await expect(atmist.locator('dt')).toHaveText(['Age / sex', 'Time of incident', 'Mechanism', 'Injuries', 'Signs', 'Treatment', 'Requirements', 'Activation']);
  await expect(atmist).toContainText('67, male');
  await expect(atmist).toContainText('HR 112 · BP 92 · RR 24 · SpO2 91% · GCS 14 · Temp 37.1 °C');
  await expect(atmist).toContainText('STEMI');
  await expectNoViolations(hp, 'the hospital page with a pre-alert');
  await hp.screenshot({ path: '.tmp/hospitals-page-inbound.png', fullPage: true });

  await unit.getByRole('button', { name: `Acknowledge pre-alert for ${plate}` }).click();
  await expect(unit.getByTestId('prealert-acknowledged')).toContainText(/^ ?Acknowledged \d/);

  // At the hospital: the handover clock runs, in words as well as colour, until the hospital presses Handover complete.
  await step('at_hospital');
  const arrived = hp.getByTestId('hospital-arrived').getByTestId('hospital-unit');
  await expect(arrived.getByTestId('hospital-unit-plate')).toHaveText(plate);
  await expect(hp.getByTestId('hospital-inbound-empty')).toHaveText('No ambulances are coming in.');
  const clock = arrived.getByTestId('handover-clock');
  await expect(clock).toContainText(/0:0\d/);
  await expect(clock).toContainText('Within 15 min');
  await expect(clock).toHaveAttribute('data-band', '0');
  await expectNoViolations(hp, 'the hospital page with a unit waiting for handover');
  await hp.screenshot({ path: '.tmp/hospitals-page-arrived.png', fullPage: true });
  await hp.setViewportSize({ width: 390, height: 844 });
  await hp.screenshot({ path: '.tmp/hospitals-page-phone.png', fullPage: true });
  await hp.setViewportSize({ width: 1280, height: 900 });
  await arrived.getByRole('button', { name: `Handover complete for ${plate}` }).click();
  await expect(clock).toHaveAttribute('data-done', 'true');
  await expect(clock).toContainText(/Handed over at \d/);
  await expect(arrived.getByRole('button', { name: /Handover complete/ })).toHaveCount(0);
});
