import { expect, test, type Locator, type Page } from './fixtures';
import { acceptDialog, ambulanceByPlate, apiToken, closeCase, dispatchCase, freeAmbulance, signIn } from './helpers';

// Only the ambulances TS09 EA 1007 and TS09 EA 1008 (and ones created here) are used by this file.
const PLATE_A = 'TS09 EA 1007';
const PLATE_B = 'TS09 EA 1008';
const run = Date.now().toString(36).slice(-5).toUpperCase();

const toast = (page: Page, text: string) => page.locator('#notistack-snackbar').filter({ hasText: text });

/**
 * Presses a row's action button from the keyboard: the bottom-right toast of the previous
 * step may still cover the last rows' buttons for its 5 s, which a keyboard user does not mind.
 */
async function press(button: Locator) {
  await button.focus();
  await button.press('Enter');
}

async function pick(page: Page, scope: Locator, field: string, option: string) {
  await scope.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('admin adds, edits and deletes an operator', async ({ page }) => {
  const name = `E2E Operator ${run}`;
  const renamed = `E2E Dispatcher ${run}`;
  const email = `e2e.op.${run.toLowerCase()}@lifeline.test`;
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Manage Operators' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Operators' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Operators' })).toContainText('operator@lifeline.test');

  // Add
  await page.getByRole('button', { name: 'Add Operator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Operator' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await pick(page, dialog, 'Shift', 'Evening');
  await pick(page, dialog, 'Gender', 'Female');
  await dialog.getByLabel('Phone').fill('5550199');
  await dialog.getByLabel('Location').fill('Hyderabad');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Operator added successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(name);
  await expect(row).toContainText('Evening');
  await expect(row).toContainText('Female');

  // A duplicate e-mail is refused with the server's text and the dialog stays open.
  await page.getByRole('button', { name: 'Add Operator' }).click();
  await dialog.getByLabel('Name').fill('Duplicate');
  await dialog.getByLabel('Email').fill(email);
  await pick(page, dialog, 'Shift', 'Night');
  await pick(page, dialog, 'Gender', 'Male');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'An account with this email already exists')).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Edit
  await press(row.getByRole('button', { name: `Edit operator ${name}` }));
  const edit = page.getByRole('dialog', { name: 'Edit Operator' });
  await expect(edit.getByLabel('Email')).toHaveValue(email);
  await edit.getByLabel('Name').fill(renamed);
  await pick(page, edit, 'Shift', 'Night');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Operator updated successfully')).toBeVisible();
  await expect(row).toContainText(renamed);
  await expect(row).toContainText('Night');

  // Delete: dismissing keeps it, accepting removes it.
  const ask = await acceptDialog(page, () => press(row.getByRole('button', { name: `Delete operator ${renamed}` })), 'dismiss');
  expect(ask).toBe('Are you sure you want to delete this operator?');
  await expect(row).toBeVisible();
  await acceptDialog(page, () => press(row.getByRole('button', { name: `Delete operator ${renamed}` })));
  await expect(toast(page, 'Operator deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('admin adds, edits and deletes an ambulance', async ({ page }) => {
  const plate = `E2E ADM ${run}`;
  const replated = `E2E ADM ${run}X`;
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Manage Ambulances' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Ambulances' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: PLATE_A })).toBeVisible();

  // Add
  await page.getByRole('button', { name: 'Add New Ambulance' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Ambulance' });
  await expect(dialog.getByRole('combobox', { name: 'Status' })).toHaveText('Available');
  await dialog.getByPlaceholder('Enter license plate').fill(plate);
  await dialog.getByLabel('Driver Email').fill('e2e.driver@lifeline.test');
  await dialog.getByRole('button', { name: 'Add Ambulance' }).click();
  await expect(toast(page, 'Ambulance added successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: plate });
  await expect(row).toContainText('available');
  await expect(row).toContainText('Location not set');

  // Edit: new plate, maintenance
  await press(row.getByRole('button', { name: `Edit ambulance ${plate}` }));
  const edit = page.getByRole('dialog', { name: 'Edit Ambulance' });
  await expect(edit.getByLabel('Driver Email')).toHaveValue('e2e.driver@lifeline.test');
  await edit.getByLabel('License Plate').fill(replated);
  await pick(page, edit, 'Status', 'Maintenance');
  await edit.getByRole('button', { name: 'Update Ambulance' }).click();
  await expect(toast(page, 'Ambulance updated successfully')).toBeVisible();
  const renamedRow = page.getByRole('row').filter({ hasText: replated });
  await expect(renamedRow).toContainText('maintenance');

  // Delete
  const ask = await acceptDialog(page, () => press(renamedRow.getByRole('button', { name: `Delete ambulance ${replated}` })));
  expect(ask).toBe('Are you sure you want to delete this ambulance?');
  await expect(toast(page, 'Ambulance deleted successfully')).toBeVisible();
  await expect(renamedRow).toHaveCount(0);
});

test('admin closes a case in the Edit Case dialog and its ambulance becomes available', async ({ page, defer }) => {
  const op = await apiToken(page, 'operator');
  const a = await ambulanceByPlate(page, op, PLATE_A);
  const b = await ambulanceByPlate(page, op, PLATE_B);
  const patient = `E2E Admin Patient ${run}`;
  const caseId = await dispatchCase(page, op, { to: `admin.case.${run.toLowerCase()}@example.com`, patientName: patient, description: 'Heart Attack', ambulanceId: a.id });
  let other: string | undefined = undefined; // set below; the clean-up registered first reads it
  expect((await ambulanceByPlate(page, op, PLATE_A)).status).toBe('busy');

  defer(async () => {
    if (other) await closeCase(page, op, other);
  });
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'All Cases' }).click();
  await expect(page.getByRole('heading', { name: 'Case Management' })).toBeVisible();
  await expect(page.getByRole('button', { name: /newest first/i })).toBeVisible();
  const row = page.locator(`tr[data-case-id="${caseId}"]`);
  await expect(row).toContainText(patient);
  await expect(row).toContainText('active');

  await press(row.getByRole('button', { name: `Edit case of ${patient}` }));
  const dialog = page.getByRole('dialog', { name: 'Edit Case Information' });
  await expect(dialog.getByRole('heading', { name: 'Update Case' })).toBeVisible();
  await expect(dialog.getByTestId('current-ambulance')).toContainText(`Currently assigned ambulance: ${PLATE_A}`);
  await expect(dialog.getByRole('combobox', { name: 'Assigned Ambulance' })).toHaveText(`${PLATE_A} (Currently assigned)`);
  await expect(dialog.getByPlaceholder('Emergency description')).toHaveValue('Heart Attack');

  // Only ambulances that can take the case are offered: B while it is available. Taken by
  // another case while the dialog is open, it stays chosen and the server's 409 shows in
  // the dialog, which stays open.
  await pick(page, dialog, 'Assigned Ambulance', PLATE_B);
  other = await dispatchCase(page, op, { to: `admin.other.${run.toLowerCase()}@example.com`, patientName: `E2E Other ${run}`, description: 'Stroke', ambulanceId: b.id });
  await dialog.getByRole('button', { name: 'Update Case' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(`Ambulance ${PLATE_B} is not available; choose another ambulance`);
  await expect(dialog).toBeVisible();

  // Back to its own ambulance, status closed.
  await pick(page, dialog, 'Assigned Ambulance', `${PLATE_A} (Currently assigned)`);
  await pick(page, dialog, 'Case Status', 'Closed');
  await dialog.getByRole('button', { name: 'Update Case' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('closed');
  await expect.poll(async () => (await ambulanceByPlate(page, op, PLATE_A)).status).toBe('available');

  // The timeline records the change.
  await press(row.getByRole('button', { name: `Edit case of ${patient}` }));
  await expect(dialog.getByRole('list', { name: 'Case timeline entries' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Case timeline' }).click();
  const entries = dialog.getByRole('list', { name: 'Case timeline entries' });
  await expect(entries).toContainText('created');
  await expect(entries).toContainText('Status: active → closed');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  // And the fleet shows the ambulance available again.
  await page.getByRole('navigation').getByRole('link', { name: 'Manage Ambulances' }).click();
  // The ambulances table itself: while the route changes, the cases table (which names plates too) may still be shown.
  await expect(page.getByRole('table', { name: 'Ambulances' }).getByRole('row').filter({ hasText: PLATE_A })).toContainText('available');
});

test('the outbox lists the patient\'s e-mail with the share-location link', async ({ page, defer }) => {
  const op = await apiToken(page, 'operator');
  const b = await ambulanceByPlate(page, op, PLATE_B);
  const to = `outbox.${run.toLowerCase()}@example.com`;
  const caseId = await dispatchCase(page, op, { to, patientName: `E2E Outbox ${run}`, description: 'Injury', ambulanceId: b.id });
  defer(async () => {
    await closeCase(page, op, caseId);
  });
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Outbox' }).click();
  const message = page.getByRole('article', { name: `Message to ${to}` });
  await expect(message).toContainText('Emergency services: please share your location');
  await expect(message).toContainText(/queued|sending|sent|failed/);
  const open = message.getByRole('link', { name: 'Open share-location link' });
  await expect(open).toHaveAttribute('href', new RegExp(`/location/${caseId}\\?t=[\\w-]{43}$`));
  await expect(open).toHaveAttribute('target', '_blank');
  await message.getByRole('button', { name: 'Show message' }).click();
  await expect(message).toContainText(`Hello E2E Outbox ${run},`);
});

test('the outbox pages on the server: 25 a page, newest first, Next and Previous by cursor, a status filter', async ({ page, defer }) => {
  const op = await apiToken(page, 'operator');
  // Freed first: a test before that timed out in its clean-up may have left it on a call.
  const b = await freeAmbulance(page, op, PLATE_B);
  const to = `outbox.pages.${run.toLowerCase()}@example.com`;
  // 27 messages newer than any other: the share-location mail, then 13 tracking pairs (patient, driver).
  const caseId = await dispatchCase(page, op, { to, patientName: `E2E Pages ${run}`, description: 'Fall', ambulanceId: b.id });
  defer(async () => {
    await closeCase(page, op, caseId);
  });
  for (let i = 0; i < 13; i++) {
    const sent = await page.request.post('/api/tracking/initiate', { headers: { authorization: `Bearer ${op}` }, data: { caseId, ambulanceId: b.id } });
    expect(sent.ok(), await sent.text()).toBeTruthy();
  }
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Outbox' }).click();
  const pager = page.getByLabel('Outbox pages');
  const shareMail = page.getByRole('article', { name: `Message to ${to}` }).filter({ hasText: 'please share your location' });
  await expect(pager).toContainText(/1–25 of \d+/);
  await expect(page.getByRole('article')).toHaveCount(25);
  await expect(page.getByRole('article', { name: `Message to ${to}` })).toHaveCount(12);
  await expect(shareMail).toHaveCount(0);

  await pager.getByRole('button', { name: 'Go to next page' }).click();
  await expect(pager).toContainText(/26–\d+ of \d+/);
  // The two oldest of the 27 lead page 2: the first tracking mail to the patient, then the share-location mail.
  await expect(page.getByRole('article').nth(1)).toHaveAccessibleName(`Message to ${to}`);
  await expect(page.getByRole('article').nth(1)).toContainText('please share your location');

  await pager.getByRole('button', { name: 'Go to previous page' }).click();
  await expect(pager).toContainText(/1–25 of \d+/);
  await expect(shareMail).toHaveCount(0);

  await pick(page, page.locator('main'), 'Status', 'Failed');
  await expect(page.getByText('No failed messages')).toBeVisible();
  await pick(page, page.locator('main'), 'Status', 'Queued');
  await expect(page.getByRole('article', { name: `Message to ${to}` })).toHaveCount(12);
  await expect(page.getByRole('article').first()).toContainText('queued');
});

test('an operator on /manage-ambulances may change only the status', async ({ page }) => {
  await signIn(page, 'operator', '/manage-ambulances');
  await expect(page.getByRole('heading', { name: 'Manage Ambulances' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: PLATE_B });
  await expect(row).toContainText('available');
  await expect(page.getByRole('button', { name: 'Add New Ambulance' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete ambulance/ })).toHaveCount(0);

  await press(row.getByRole('button', { name: `Edit ambulance ${PLATE_B}` }));
  const dialog = page.getByRole('dialog', { name: 'Edit Ambulance' });
  await expect(dialog.getByLabel('License Plate')).toHaveAttribute('readonly', '');
  await expect(dialog.getByLabel('Driver Email')).toHaveAttribute('readonly', '');
  await pick(page, dialog, 'Status', 'Maintenance');
  await dialog.getByRole('button', { name: 'Update Ambulance' }).click();
  await expect(toast(page, 'Ambulance updated successfully')).toBeVisible();
  await expect(row).toContainText('maintenance');

  // Back to available, so the fleet is as it was.
  await press(row.getByRole('button', { name: `Edit ambulance ${PLATE_B}` }));
  await pick(page, dialog, 'Status', 'Available');
  await dialog.getByRole('button', { name: 'Update Ambulance' }).click();
  await expect(row).toContainText('available');
});
