import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import type { ResponseTimesReport } from '../src/api/contract';
import { callsText, measuredLine, priorityLine } from '../src/features/reports/today/todayText';
import { apiToken, freeAmbulance, signIn } from './helpers';

// Issue 17, "Today, live": the operator summary's figures since local midnight follow the calls
// without a reload; the admin overview says what was measured over the last 30 days.

noOpenCallsAroundEachTest();

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** The live cache refetches reports at most every 5 s: a change may wait that long. */
const LIVE = { timeout: 12_000 };

/** The browser's zone and today's date there, as the component reads them. */
async function browserDay(page: Page) {
  return page.evaluate(() => {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date()).split(':').map(Number);
    return { tz, date, minutesSinceMidnight: h * 60 + m };
  });
}

async function todayReport(page: Page, token: string, day: { tz: string; date: string }): Promise<ResponseTimesReport> {
  const res = await page.request.get(`/api/reports/response-times?from=${day.date}&tz=${encodeURIComponent(day.tz)}`, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const callsShown = (r: ResponseTimesReport) => (r.overall.calls === 0 ? 'No calls yet today' : `${callsText(r.overall.calls)} today`);

test('the operator summary shows today\'s figures and follows a new call to the scene without a reload', async ({ page }) => {
  await signIn(page, 'operator');
  const token = await apiToken(page, 'operator');
  const day = await browserDay(page);
  const live = page.getByTestId('today-live');
  await expect(live.getByRole('heading', { name: 'Today, live' })).toBeVisible();

  const before = await todayReport(page, token, day);
  await expect(live.getByTestId(before.overall.calls === 0 ? 'today-empty' : 'today-calls')).toHaveText(callsShown(before));
  // A reload would drop this mark: the figures below must change in place.
  await page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });

  // A P4 call received a few minutes ago today (never before local midnight), its unit dispatched.
  const ambulance = await freeAmbulance(page, token, 'TS09 EA 1008');
  const minutesAgo = Math.max(0, Math.min(7, day.minutesSinceMidnight - 1));
  const created = await page.request.post('/api/cases', {
    headers: auth(token),
    data: {
      email: 'today.live@example.com', caseType: 'Medical Emergency', patientName: 'E2E Today Live', description: 'Fall at home',
      priority: 4, ambulance_id: ambulance.id, call_received_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await expect(live.getByTestId('today-calls')).toHaveText(`${callsText(before.overall.calls + 1)} today`, LIVE);
  const row = live.getByTestId('today-row-P4');
  await expect(row).toBeVisible();

  for (const status of ['en_route', 'on_scene']) {
    const moved = await page.request.post(`/api/ambulances/${ambulance.id}/unit-status`, { headers: auth(token), data: { status } });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  const after = await todayReport(page, token, day);
  const p4 = after.priorities.find((p) => p.priority === 4)!;
  expect(p4.intervals.response.p90_s, 'the new call has a response time').not.toBeNull();
  await expect(row.getByTestId('today-row-text')).toHaveText(priorityLine(p4), LIVE);
  await expect(row.getByTestId('today-row-text')).toContainText('90th percentile');
  const verdict = p4.intervals.response.p90_s! <= p4.target_s ? 'within' : 'over';
  await expect(row).toHaveAttribute('data-verdict', verdict);
  await expect(row.getByTestId('today-row-verdict')).toHaveText(verdict === 'within' ? 'Within target' : 'Over target');
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await page.screenshot({ path: '.tmp/today-live-summary.png', fullPage: true });
});

test('the admin overview shows the measured line and its note, and today\'s figures', async ({ page }) => {
  await signIn(page, 'admin');
  const token = await apiToken(page, 'admin');
  const res = await page.request.get(`/api/reports/response-times?tz=${encodeURIComponent((await browserDay(page)).tz)}`, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  const month: ResponseTimesReport = await res.json();

  const measured = page.getByTestId('measured-line');
  await expect(measured.getByTestId('measured-text')).toHaveText(measuredLine(month.overall));
  await expect(measured.getByTestId('measured-text')).toContainText(/^Measured here, last 30 days: (no calls yet|mean response \d+:\d\d)/);
  await expect(measured).toContainText('are marketing figures of the specification');
  await expect(page.getByTestId('today-live').getByRole('heading', { name: 'Today, live' })).toBeVisible();
  await page.screenshot({ path: '.tmp/today-live-admin.png', fullPage: true });

  // Only here: the public page keeps the specification's texts and no measured line.
  await page.goto('/');
  await expect(page.getByText('Proven Impact')).toBeVisible();
  await expect(page.getByTestId('measured-line')).toHaveCount(0);
});
