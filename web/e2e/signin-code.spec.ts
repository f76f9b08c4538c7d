import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { ACCOUNTS, acceptDialog, submitSignIn } from './helpers';

/**
 * SIGNIN_CODE=email in the browser: the sign-in page asks for the mailed code, shows a wrong
 * code's error, and signs in with the right one. Runs its own server (the shared one has
 * the demo's SIGNIN_CODE=off; like it, no SMTP_URL) and reads the code from the mail waiting
 * in its outbox. (The API suite delivers the same mail through a real SMTP listener.)
 */

const port = Number(process.env.E2E_PORT ?? 4321) + 50;
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = spawn('node_modules/.bin/tsx', ['scripts/e2eServer.ts'], {
    env: { ...process.env, E2E_PORT: String(port), SIGNIN_CODE: 'email' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => undefined))?.status, { timeout: 60_000, intervals: [250] }).toBe(200);
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

/** The outbox id of the newest mail so far (0 when none). */
function lastMailId(): number {
  const db = new Database(path.resolve(`.tmp/e2e-${port}/e2e.sqlite`), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select max(id) as id from outbox').get() as { id: number | null }).id ?? 0;
  } finally {
    db.close();
  }
}

/** The code in the newest sign-in mail to `to` queued after outbox id `after`. */
async function mailedCode(to: string, after: number): Promise<string> {
  let code: string | undefined;
  await expect.poll(() => {
    const db = new Database(path.resolve(`.tmp/e2e-${port}/e2e.sqlite`), { readonly: true, fileMustExist: true });
    try {
      const mail = db.prepare("select body_text from outbox where kind = 'signin-code' and to_address = ? and id > ? order by id desc").get(to, after) as { body_text: string } | undefined;
      code = mail && /^\s+(\d{6})$/m.exec(mail.body_text)?.[1];
      return code;
    } finally {
      db.close();
    }
  }, { timeout: 10_000 }).toBeDefined();
  return code!;
}

test('the sign-in page asks for the e-mailed code, refuses a wrong one, and signs in with the right one', async ({ page }) => {
  const who = ACCOUNTS.operator;
  const delivered = lastMailId();
  await submitSignIn(page, 'operator', `${base}/signin`);

  const codeField = page.getByLabel('Verification Code');
  await expect(codeField).toBeVisible();
  await expect(page.getByText(`We e-mailed a 6-digit code to ${who.email}`)).toBeVisible();
  const code = await mailedCode(who.email, delivered);

  await codeField.fill(code === '000000' ? '111111' : '000000');
  const wrong = await acceptDialog(page, () => page.getByRole('button', { name: 'VERIFY' }).click());
  expect(wrong).toBe('Wrong code; 4 tries left');
  await expect(codeField).toBeVisible();

  await codeField.fill(code);
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('connection-indicator')).toHaveText('Live');
});

test('after five wrong codes the page goes back to the first step', async ({ page }) => {
  const who = ACCOUNTS.admin;
  const delivered = lastMailId();
  await submitSignIn(page, 'admin', `${base}/signin`);
  const code = await mailedCode(who.email, delivered);
  const wrong = code === '000000' ? '111111' : '000000';
  const messages = [];
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Verification Code').fill(wrong);
    messages.push(await acceptDialog(page, () => page.getByRole('button', { name: 'VERIFY' }).click()));
  }
  expect(messages.at(-1)).toBe('Too many wrong codes; sign in again');
  await expect(page.getByRole('button', { name: 'GET STARTED' })).toBeVisible();
  // The fields are kept: one press mails a new code.
  await expect(page.getByLabel('Email')).toHaveValue(who.email);
  const again = lastMailId();
  await page.getByRole('button', { name: 'GET STARTED' }).click();
  await page.getByLabel('Verification Code').fill(await mailedCode(who.email, again));
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page).toHaveURL(/\/admin-dashboard$/);
});
