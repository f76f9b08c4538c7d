import fs from 'node:fs';
import { expect, test, type Page } from './fixtures';
import { expectNoViolations } from './axe';
import { ASSIGNMENT_CSV_COLUMNS, INTERVALS, type HandoverReport, type PriorityReport, type ResponseTimesReport, localDate } from '../src/api/contract';
import { apiToken, closeCase, dispatchCase, freeAmbulance, signIn, skipRetries, trackRequests } from './helpers';
import { demandFixture, handoverFixture, responseTimesFixture, utilisationFixture } from './reportFixtures';

// Every page's requests are counted from its first load, so axe runs on a settled page (settled()).
test.beforeEach(({ page }) => trackRequests(page));

/** "13:20", "1:02:09": as the screen writes a duration. */
function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
const percent = (share: number | null) => (share == null ? '–' : `${Math.round(share * 100)} %`);

/** The screen's default period as the browser asks for it: the last 30 local days, to = the day after today. */
async function defaultPeriod(page: Page) {
  return page.evaluate(() => {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const shift = (days: number) => {
      const [y, m, d] = today.split('-').map(Number);
      return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
    };
    return { from: shift(-29), to: shift(1), tz };
  });
}

const query = (p: { from: string; to: string; tz: string }) => new URLSearchParams(p).toString();

/** What a tile must say for a priority's figures. */
async function expectTile(page: Page, p: PriorityReport) {
  const tile = page.getByTestId(`report-tile-P${p.priority}`);
  await expect(tile.getByTestId('tile-calls')).toHaveText(`${p.calls} ${p.calls === 1 ? 'call' : 'calls'}`);
  await expect(tile.getByTestId('tile-p90')).toHaveText(p.intervals.response.p90_s == null ? '–' : clock(p.intervals.response.p90_s));
  await expect(tile.getByTestId('tile-target')).toHaveText(`(target ${clock(p.target_s)})`);
  await expect(tile.getByTestId('tile-share')).toHaveText(`${percent(p.response_within_target.share)} within target`);
  const p90 = p.intervals.response.p90_s;
  await expect(tile).toContainText(p90 == null ? 'No response times' : p90 <= p.target_s ? 'Target met' : 'Target missed');
}

/**
 * Makes sure the last 30 days hold at least one call with a response time: the demo history
 * (SEED=demo) has hundreds; without it, one call is dispatched and driven to the scene here.
 */
async function ensureHistory(page: Page, period: { from: string; to: string; tz: string }) {
  const operator = await apiToken(page, 'operator');
  const res = await page.request.get(`/api/reports/response-times?${query(period)}`, { headers: { authorization: `Bearer ${operator}` } });
  expect(res.ok(), await res.text()).toBeTruthy();
  if ((await res.json() as ResponseTimesReport).overall.intervals.response.n > 0) return;
  const unit = await freeAmbulance(page, operator, 'TS09 EA 1009');
  const caseId = await dispatchCase(page, operator, { to: 'reports.check@example.com', patientName: 'Reports Check', description: 'Chest pain', ambulanceId: unit.id });
  for (const status of ['en_route', 'on_scene']) {
    const step = await page.request.post(`/api/ambulances/${unit.id}/unit-status`, { headers: { authorization: `Bearer ${operator}` }, data: { status } });
    expect(step.ok(), await step.text()).toBeTruthy();
  }
  await closeCase(page, operator, caseId);
}

/**
 * One call conveyed to a hospital made here and handed over (issue 30), so that the Handover section
 * has a real destination to draw whatever the demo history holds.
 */
async function conveyAndHandOver(page: Page) {
  const admin = await apiToken(page, 'admin');
  const operator = await apiToken(page, 'operator');
  const created = await page.request.post('/api/hospitals', {
    headers: { authorization: `Bearer ${admin}` }, data: { name: 'Reports Spec General', latitude: 17.4, longitude: 78.48 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const hospital = (await created.json()).hospital as { id: number };
  const unit = await freeAmbulance(page, operator, 'TS09 EA 1006');
  const caseId = await dispatchCase(page, operator, { to: 'reports.handover@example.com', patientName: 'Reports Handover', description: 'Fall', ambulanceId: unit.id });
  const detail = await page.request.get(`/api/cases/${caseId}`, { headers: { authorization: `Bearer ${operator}` } });
  const assignment = ((await detail.json()).assignments as { id: number }[]).at(-1)!;
  const dest = await page.request.post(`/api/cases/${caseId}/assignments/${assignment.id}/destination`, {
    headers: { authorization: `Bearer ${operator}` }, data: { hospital_id: hospital.id, reason: 'closest' },
  });
  expect(dest.ok(), await dest.text()).toBeTruthy();
  for (const status of ['en_route', 'on_scene', 'transporting', 'at_hospital', 'handover']) {
    const step = await page.request.post(`/api/ambulances/${unit.id}/unit-status`, { headers: { authorization: `Bearer ${operator}` }, data: { status } });
    expect(step.ok(), await step.text()).toBeTruthy();
  }
  await closeCase(page, operator, caseId);
}

test('the Reports screen draws the demo history: tiles, tables and the CSV agree with the API', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, 'operator');
  const period = await defaultPeriod(page);
  await ensureHistory(page, period);
  await conveyAndHandOver(page);

  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText('Last 30 days');
  await expect(page.getByTestId('reports-total')).toBeVisible({ timeout: 15_000 });

  // The figures the screen drew came from the same period the API answers now.
  const token = await apiToken(page, 'operator');
  const get = async <T,>(path: string): Promise<T> => {
    const res = await page.request.get(`${path}?${query(period)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.ok(), await res.text()).toBeTruthy();
    return res.json();
  };
  const report = await get<ResponseTimesReport>('/api/reports/response-times');
  const utilisation = await get<import('../src/api/contract').UtilisationReport>('/api/reports/utilisation');
  const demand = await get<import('../src/api/contract').DemandReport>('/api/reports/demand');
  const handover = await get<HandoverReport>('/api/reports/handover');

  await expect(page.getByTestId('reports-total')).toHaveText(`${report.overall.calls} ${report.overall.calls === 1 ? 'call' : 'calls'} received in this period`);
  for (const p of report.priorities) await expectTile(page, p);

  // Every chart has its figures in a table, with a caption and headers.
  const response = page.getByTestId('report-response');
  await response.getByRole('button', { name: 'Show table' }).click();
  const responseTable = page.getByRole('table', { name: /Response \(call received to on scene\) per priority/ });
  await expect(responseTable).toBeVisible();
  for (const p of report.priorities) {
    const row = responseTable.getByRole('row', { name: new RegExp(`^P${p.priority} `) });
    await expect(row.getByRole('cell').nth(0)).toHaveText(String(p.calls));
    await expect(row.getByRole('cell').nth(5)).toHaveText(p.intervals.response.p90_s == null ? '–' : clock(p.intervals.response.p90_s));
  }
  await expect(page.getByRole('table', { name: /Every interval over all/ }).getByRole('row')).toHaveCount(1 + INTERVALS.length);

  await page.getByTestId('report-daily').getByRole('button', { name: 'Show table' }).click();
  const days = new Set(report.daily.map((d) => d.date));
  await expect(page.getByTestId('daily-table').locator('tbody tr')).toHaveCount(days.size);

  const total = demand.counts.flat().reduce((a, b) => a + b, 0);
  expect(total, 'demand counts every call of the period').toBe(report.overall.calls);
  await expect(page.getByRole('table', { name: `Calls per weekday (rows) and hour of the day (columns), ${total} in all` })).toBeVisible();
  const cells = await page.getByTestId('demand-table').locator('td[data-count]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-count'))));
  expect(cells).toEqual(demand.counts.flat());

  await page.getByTestId('report-utilisation').getByRole('button', { name: 'Show table' }).click();
  const utilTable = page.getByTestId('utilisation-table');
  await expect(utilTable.locator('tbody tr')).toHaveCount(utilisation.ambulances.length + 1);
  // Time on shift runs on with the clock, so the shares move between two reads: the rows are compared, not the live shares.
  await expect(utilTable.locator('tbody th')).toHaveText([...utilisation.ambulances.map((a) => a.license_plate).sort((a, b) => a.localeCompare(b)), 'All ambulances']);
  await expect(utilTable.getByRole('row', { name: /^All ambulances/ }).getByRole('cell').last()).toHaveText(/^(\d+ %|–)$/);

  // Hospital handover: a row per destination as the API lists them (the one made above among them), then all of them.
  expect(handover.hospitals.map((h) => h.name)).toContain('Reports Spec General');
  await page.getByTestId('report-handover').getByRole('button', { name: 'Show table' }).click();
  const handoverTable = page.getByTestId('handover-table');
  await expect(handoverTable.locator('tbody th')).toHaveText([...handover.hospitals.filter((h) => h.arrivals > 0).map((h) => h.name ?? 'No destination recorded'), 'All hospitals']);
  await expect(page.getByTestId('prealert-table').getByRole('row', { name: /^All hospitals/ }).getByRole('cell').nth(0)).toHaveText(String(handover.overall.prealerts_sent));
  await expect(handoverTable.getByRole('row', { name: /^All hospitals/ }).getByRole('cell').nth(0)).toHaveText(String(handover.overall.arrivals));
  await expect(handoverTable.getByRole('row', { name: /^All hospitals/ }).getByRole('cell').nth(1)).toHaveText(String(handover.overall.handover.n));
  await expect(page.getByTestId('report-handover').locator('svg rect').first()).toBeAttached();

  // The charts are drawn (SVG from MUI X Charts), not only their tables.
  await expect(page.getByTestId('report-response').locator('svg .MuiBarElement-root, svg [class*="MuiBarChart"], svg rect').first()).toBeAttached();
  await expect(page.getByTestId('report-daily').locator('svg path').first()).toBeAttached();

  await page.getByRole('button', { name: 'Hide table' }).first().click();
  await page.screenshot({ path: '.tmp/reports-operator.png', fullPage: true });

  // Download CSV: the same period, the header row exactly the contract's columns.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`lifeline-assignments-${period.from}-to-${new Date(Date.parse(`${period.to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)}.csv`);
  const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split(/\r?\n/);
  expect(lines[0]).toBe(ASSIGNMENT_CSV_COLUMNS.join(','));
  expect(lines.length, 'a row per assignment after the header').toBeGreaterThan(1);
  expect(lines[1]).toMatch(/^[^,]+,\d+,[1-4],/);

  await expectNoViolations(page, 'the reports with the CSV downloaded');
});

test('the admin has the Reports screen too', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByTestId('reports-total').or(page.getByTestId('reports-empty'))).toBeVisible({ timeout: 15_000 });
});

test.describe('a known report (answers stubbed in the browser)', () => {
  /** Answers the three report requests with the fixtures; `fail` makes response-times answer 500 until set false. */
  async function stubReports(page: Page, opts: { fail?: () => boolean; hold?: Promise<void>; empty?: boolean; noArrivals?: boolean } = {}) {
    const seen: URL[] = [];
    await page.route('**/api/reports/**', async (route) => {
      const url = new URL(route.request().url());
      seen.push(url);
      const from = url.searchParams.get('from')!;
      const to = url.searchParams.get('to')!;
      const tz = url.searchParams.get('tz')!;
      await opts.hold;
      if (url.pathname.endsWith('/response-times')) {
        if (opts.fail?.()) return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
        const body = responseTimesFixture(from, to, tz);
        if (opts.empty) body.overall.calls = 0;
        return route.fulfill({ json: body });
      }
      if (url.pathname.endsWith('/utilisation')) return route.fulfill({ json: utilisationFixture(from, to) });
      if (url.pathname.endsWith('/handover')) return route.fulfill({ json: handoverFixture(from, to, tz, opts.noArrivals) });
      // The fixture's calls are all before today: the screen asks for today's demand apart (and adds it up).
      if (url.pathname.endsWith('/demand')) return route.fulfill({ json: from === localDate(Date.now(), tz) ? { from, to, tz, counts: demandFixture(from, to, tz).counts.map((row) => row.map(() => 0)) } : demandFixture(from, to, tz) });
      return route.continue();
    });
    return seen;
  }

  test('tiles in colour and words, each table, the periods asked for', async ({ page }) => {
    await signIn(page, 'operator');
    const seen = await stubReports(page);
    await page.goto('/dashboard/reports');
    const period = await defaultPeriod(page);
    await expect(page.getByTestId('reports-total')).toHaveText('85 calls received in this period');

    const p1 = page.getByTestId('report-tile-P1');
    await expect(p1).toHaveAccessibleName('P1 Life-threatening · 42 calls · 90th percentile 13:20 (target 15:00) · 91 % within target');
    await expect(p1).toContainText('Target met');
    await expect(page.getByTestId('report-tile-P2')).toContainText('Target missed');
    await expect(page.getByTestId('report-tile-P2').getByTestId('tile-p90')).toHaveText('45:00');
    await expect(page.getByTestId('report-tile-P4')).toContainText('No response times');
    await expect(page.getByTestId('report-tile-P4').getByTestId('tile-p90')).toHaveText('–');
    await expect(page.getByTestId('report-tile-P3').getByTestId('tile-target')).toHaveText('(target 2:00:00)');

    // Every request carried the browser's zone and local dates, to = the day after the last; demand as
    // the past days and today (counts add up; percentiles do not, so the others ask for the whole period).
    expect(seen.length).toBeGreaterThanOrEqual(4);
    const today = new Date(Date.parse(`${period.to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    for (const u of seen) {
      const asked = Object.fromEntries(u.searchParams);
      if (u.pathname.endsWith('/demand')) expect([{ ...period, to: today }, { ...period, from: today }]).toContainEqual(asked);
      else expect(asked).toEqual(period);
    }
    const responseTimesAsked = () => seen.filter((u) => u.pathname.endsWith('/response-times'));

    // When the figures were fetched, and Refresh to ask again, answered in words.
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await expect(refresh).toHaveAccessibleDescription(/^Updated \d{1,2}:\d{2}/);
    const asksBefore = responseTimesAsked().length;
    await refresh.click();
    await expect.poll(() => responseTimesAsked().length).toBeGreaterThan(asksBefore);
    await expect(page.getByRole('status').filter({ hasText: /^Figures updated at \d{1,2}:\d{2}/ })).toHaveCount(1);

    await page.getByTestId('report-response').getByRole('button', { name: 'Show table' }).click();
    await expect(page.getByTestId('report-response').getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');
    const p2 = page.getByRole('table', { name: /per priority/ }).getByRole('row', { name: /^P2 / });
    await expect(p2.getByRole('cell')).toHaveText(['30', '30', '0', '25:00', '28:20', '45:00', '40:00', '80 %']);

    await page.getByTestId('report-daily').getByRole('button', { name: 'Show table' }).click();
    await expect(page.getByTestId('daily-table').getByRole('row', { name: /^2026-11-25/ }).getByRole('cell')).toHaveText(['13:30 (14)', '– (10)', '1:20:00 (4)']);

    const friday18 = page.getByTestId('demand-table').getByRole('row', { name: /^Fri/ }).locator('td').nth(18);
    await expect(friday18).toHaveText('9');
    await expect(page.getByRole('table', { name: /, 387 in all$/ })).toBeVisible();

    await page.getByTestId('report-utilisation').getByRole('button', { name: 'Show table' }).click();
    await expect(page.getByTestId('utilisation-table').getByRole('row', { name: /^TS09 EA 1003/ }).getByRole('cell')).toHaveText(['0.0 h', '0.0 h', '–']);
    await expect(page.getByTestId('utilisation-table').getByRole('row', { name: /^All ambulances/ }).getByRole('cell')).toHaveText(['10.0 h', '40.0 h', '25 %']);
    // Hospital handover: the summary in words, a row per destination in the server's order, then all hospitals.
    const handover = page.getByTestId('report-handover');
    await expect(handover.getByRole('heading', { level: 2, name: 'Hospital handover' })).toBeVisible();
    await expect(handover).toContainText('6 arrivals at hospital, 4 handed over; 90th percentile 1:10:00; 25 % within 15 min; 1 over 60 min; 1.4 hours lost beyond 15 min.');
    await expect(handover.getByRole('img', { name: /^Hospital handover, drawn as a chart/ })).toBeVisible();
    await handover.getByRole('button', { name: 'Show table' }).click();
    const handoverTable = page.getByRole('table', { name: /^Handover per destination/ });
    await expect(handoverTable.getByRole('columnheader')).toHaveText([
      'Hospital', 'Arrivals', 'Handed over', 'Median handover', '90th percentile', 'Within 15 min', 'Within 30 min', 'Over 60 min', 'Hours lost beyond 15 min',
    ]);
    // A hospital that only had a pre-alert has no handover row.
    await expect(handoverTable.locator('tbody th')).toHaveText(['City General', 'Royal Infirmary', 'No destination recorded', 'All hospitals']);
    await expect(handoverTable.getByRole('row', { name: /^Royal Infirmary/ }).getByRole('cell')).toHaveText(['2', '2', '20:00', '1:10:00', '0 % (0)', '50 % (1)', '1', '1.0 h']);
    await expect(handoverTable.getByRole('row', { name: /^No destination recorded/ }).getByRole('cell')).toHaveText(['1', '0', '–', '–', '–', '–', '0', '0.0 h']);
    await expect(handoverTable.getByRole('row', { name: /^All hospitals/ }).getByRole('cell')).toHaveText(['6', '4', '20:00', '1:10:00', '25 % (1)', '50 % (2)', '1', '1.4 h']);
    const prealertTable = page.getByRole('table', { name: /^Pre-alerts per hospital/ });
    await expect(prealertTable.locator('tbody th')).toHaveText(['City General', 'Lakeside Children\'s', 'Royal Infirmary', 'All hospitals']);
    await expect(prealertTable.getByRole('row', { name: /^Lakeside Children's/ }).getByRole('cell')).toHaveText(['1', '0 (0 %)', '–', '–']);
    await expect(prealertTable.getByRole('row', { name: /^All hospitals/ }).getByRole('cell')).toHaveText(['5', '3 (60 %)', '1:00', '4:00']);
    await page.screenshot({ path: '.tmp/reports-fixture.png', fullPage: true });
    await expectNoViolations(page, 'the reports, light theme, every table open');

    // Presets ask for their own days; Custom starts from the days shown and says what is wrong.
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    await expect.poll(() => responseTimesAsked().at(-1)?.searchParams.get('from')).toBe(await page.evaluate(() => {
      const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
      const [y, m, d] = today.split('-').map(Number);
      return new Date(Date.UTC(y, m - 1, d - 6)).toISOString().slice(0, 10);
    }));
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Custom' }).click();
    await page.getByLabel('First day').fill('2026-11-10');
    await page.getByLabel('Last day').fill('2026-11-01');
    await expect(page.getByText('The first day must not be after the last day')).toBeVisible();
    // Nothing is asked for such a period, so nothing is shown as loading.
    await expect(page.getByRole('progressbar', { name: 'Loading the new period' })).toHaveCount(0);
    await page.getByLabel('Last day').fill('2026-11-30');
    await expect.poll(() => responseTimesAsked().at(-1) && Object.fromEntries(responseTimesAsked().at(-1)!.searchParams)).toEqual({ ...period, from: '2026-11-10', to: '2026-12-01' });
    await expect(page.getByText(/Nov 10, 2026 – Nov 30, 2026|10 Nov 2026 – 30 Nov 2026/)).toBeVisible();
  });

  test('loading, failure with Retry, and an empty period are worded', async ({ page }) => {
    await signIn(page, 'operator');
    let release!: () => void;
    let failing = true;
    await stubReports(page, { hold: new Promise<void>((r) => { release = r; }), fail: () => failing });
    // The page's clock jumps over the failed query's retries (after 1 s, then 2 s) instead of waiting them out.
    await page.clock.install();
    await page.goto('/dashboard/reports');
    await expect(page.getByRole('status').filter({ hasText: 'Loading reports…' })).toBeVisible();
    release();
    await skipRetries(page);
    const failure = page.getByTestId('load-failure');
    await expect(failure).toContainText('Could not load reports', { timeout: 15_000 });
    await expectNoViolations(page, 'the reports when their load failed');
    // Retry is offered once the automatic retries have given up too.
    const retry = failure.getByRole('button', { name: 'Retry' });
    await expect(retry).toBeEnabled({ timeout: 15_000 });
    failing = false;
    await retry.click();
    await expect(page.getByTestId('reports-total')).toBeVisible();
    await expect(failure).toBeHidden();

    await page.unroute('**/api/reports/**');
    await stubReports(page, { noArrivals: true });
    await page.getByRole('button', { name: 'Refresh' }).click();
    // Calls but no unit at a hospital: the Handover section says so, with nothing to show as a table.
    const handover = page.getByTestId('report-handover');
    await expect(handover.getByTestId('handover-empty')).toHaveText('No arrivals at hospital in this period');
    await expect(handover.getByRole('button', { name: 'Show table' })).toHaveCount(0);
    await expect(handover).toContainText('0 arrivals at hospital, 0 handed over.');
    await expectNoViolations(page, 'the reports with no arrivals at hospital');

    await page.unroute('**/api/reports/**');
    await stubReports(page, { empty: true });
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Today' }).click();
    await expect(page.getByTestId('reports-empty')).toHaveText('No calls in this period');
  });
});
