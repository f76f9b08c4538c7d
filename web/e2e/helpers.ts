import { expect, type Page } from '@playwright/test';

export const ACCOUNTS = {
  admin: { email: 'admin@lifeline.test', username: 'Admin', phone: '5550100' },
  operator: { email: 'operator@lifeline.test', username: 'Operator', phone: '5550101' },
} as const;

/** Signs in through the sign-in form, as a person would. */
export async function signIn(page: Page, who: keyof typeof ACCOUNTS) {
  const a = ACCOUNTS[who];
  await page.goto('/signin');
  await page.getByLabel('Email').fill(a.email);
  await page.getByLabel('Username').fill(a.username);
  await page.getByLabel('Phone Number').fill(a.phone);
  await page.getByRole('button', { name: 'GET STARTED' }).click();
  await expect(page).toHaveURL(who === 'admin' ? /\/admin-dashboard$/ : /\/dashboard$/);
}

/** A bearer token for API set-up steps (not what the test is about). */
export async function apiToken(page: Page, who: keyof typeof ACCOUNTS): Promise<string> {
  const res = await page.request.post('/api/auth/signin', { data: ACCOUNTS[who] });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).token;
}

/** Runs `action` and answers the alert or confirm it raises; resolves with the dialog's text. */
export async function acceptDialog(page: Page, action: () => Promise<void>, answer: 'accept' | 'dismiss' = 'accept'): Promise<string> {
  let message: string | undefined;
  const onDialog = async (d: import('@playwright/test').Dialog) => {
    message = d.message();
    await (answer === 'accept' ? d.accept() : d.dismiss());
  };
  page.on('dialog', onDialog);
  try {
    await action();
    await expect.poll(() => message, { timeout: 5000 }).toBeDefined();
    return message!;
  } finally {
    page.off('dialog', onDialog);
  }
}
