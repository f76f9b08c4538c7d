import { expect, test } from './fixtures';
import { acceptDialog, signIn, signInWithForm } from './helpers';

test('landing buttons lead to /signin', async ({ page }) => {
  await page.goto('/');
  for (const name of ['Get Started', 'Sign In', 'Get Started Now']) {
    await page.goto('/');
    await page.getByRole('link', { name, exact: true }).first().click();
    await expect(page).toHaveURL(/\/signin$/);
  }
});

test('an operator lands on /dashboard and an admin on /admin-dashboard', async ({ page, browser }) => {
  await signInWithForm(page, 'operator');
  await expect(page.getByTestId('connection-indicator')).toHaveText('Live');
  const admin = await browser.newPage();
  await signInWithForm(admin, 'admin');
  await expect(admin.getByText('Admin Portal').first()).toBeVisible();
  await admin.close();
});

test('a bad sign-in shows the server error', async ({ page }) => {
  await page.goto('/signin');
  await page.getByLabel('Email').fill('operator@lifeline.test');
  await page.getByLabel('Username').fill('Nobody');
  await page.getByLabel('Phone Number').fill('123');
  const message = await acceptDialog(page, () => page.getByRole('button', { name: 'GET STARTED' }).click());
  expect(message).toBe('No staff account matches this email, username and phone number');
  await expect(page).toHaveURL(/\/signin$/);
});

test('route guards: no session, wrong role, unknown path', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto('/ambulance-map');
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  // A signed-in operator on an admin URL is told so and stays signed in (also feedback.spec.ts).
  await signIn(page, 'operator', '/admin-dashboard');
  await expect(page.getByRole('heading', { name: 'This page is for administrators' })).toBeVisible();
});
