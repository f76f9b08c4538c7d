import { afterAll, beforeAll, expect, it } from 'vitest';
import { dispatchCase, driverOf, initiateTracking } from '../testing/dispatchHelpers';
import { startSmtpListener, type SmtpListener } from '../testing/smtpListener';
import { useTestServer } from '../testing/testServer';
import { waitFor } from '../testing/wait';

/**
 * Safe e-mail: markup and a `javascript:` link typed into a case reach the patient's
 * and the driver's e-mails as plain text: single-part text/plain, no HTML part, the
 * characters exactly as typed (not escaped, not interpreted). The browser side is
 * web/e2e/hostile-text.spec.ts.
 */
const MARKUP = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const NAME = `${MARKUP} Rao`;
const DESCRIPTION = `${MARKUP} javascript:alert(1) [open](javascript:alert(1))`;

let smtp: SmtpListener;
beforeAll(async () => { smtp = await startSmtpListener(); });
afterAll(() => smtp?.close());
const s = useTestServer(() => ({ env: { SMTP_URL: smtp.url } }));

it('the share-location, tracking and driver e-mails are text only and carry the typed text literally', async () => {
  const operator = await s.signIn('operator');
  const caseId = await dispatchCase(s, operator, 1, { to: 'hostile@example.com', patientName: NAME, description: DESCRIPTION });
  expect((await initiateTracking(s, operator, caseId, 1)).status).toBe(200);
  // The dispatch's two (the patient's share-location, the crew's) and Send Tracker's two.
  await waitFor(() => smtp.received.length >= 4, 'the four e-mails', 5000);

  for (const m of smtp.received) {
    expect(m.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/i);
    expect(m.raw).not.toMatch(/multipart\/|text\/html|Content-Disposition: attachment/i);
    expect(m.text).not.toMatch(/&lt;|&gt;|&quot;|&amp;/);
    // Nothing of the typed text reaches a header (the subject names the plate and case only).
    expect(m.subject).not.toContain('<');
  }
  const patient = smtp.received.filter((m) => m.to.includes('hostile@example.com'));
  expect(patient).toHaveLength(2);
  for (const m of patient) expect(m.text).toContain(`Hello ${NAME},\n`);
  const drivers = smtp.received.filter((m) => m.to.includes(driverOf(1)));
  expect(drivers).toHaveLength(2);
  for (const driver of drivers) {
    expect(driver.text).toContain(`Patient: ${NAME}\n`);
    expect(driver.text).toContain(`Emergency: ${DESCRIPTION}\n`);
  }

  // The admin's outbox holds the same text, and no HTML body.
  const outbox = (await s.api('GET', '/api/outbox', { token: await s.signIn('admin') })).body.messages.filter((m: any) => m.case_id === caseId);
  expect(outbox).toHaveLength(4);
  for (const m of outbox) expect(Object.keys(m).filter((k) => /html/i.test(k))).toEqual([]);
});

it('line breaks in a description reach the driver e-mail only as indented continuation lines, never as a header-like line', async () => {
  const operator = await s.signIn('operator');
  const description = 'Chest pain\nSubject: x\r\nBcc: leak@example.com\u2028To: other@example.com\u2029\rconscious';
  const caseId = await dispatchCase(s, operator, 2, { to: 'multi@example.com', description });
  expect((await initiateTracking(s, operator, caseId, 2)).status).toBe(200);
  const driver = await waitFor(() => smtp.received.find((m) => m.to.includes(driverOf(2))), 'the driver e-mail', 5000);
  await waitFor(() => smtp.received.filter((m) => m.to.includes('multi@example.com')).length === 2, 'the patient e-mails', 5000);
  expect(driver.text).toContain('Emergency: Chest pain\n  Subject: x\n  Bcc: leak@example.com\n  To: other@example.com\n  \n  conscious\n');
  // No line of any e-mail begins with a header name taken from the typed text, and nothing went to the typed addresses.
  for (const m of smtp.received) {
    expect(m.text).not.toMatch(/^(Subject|Bcc|To):/m);
    expect(m.to).not.toContain('leak@example.com');
    expect(m.headers.bcc).toBeUndefined();
  }
});
