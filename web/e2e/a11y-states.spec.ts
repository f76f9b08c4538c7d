import { expect, test, type Route } from './fixtures';
import { expectNoViolations } from './axe';
import { ACCOUNTS, apiPath, openAs, settled, skipRetries, trackRequests } from './helpers';

// Issue 25: axe finds no violation on every staff screen in its loading and error states too (the loaded
// states are a11y.spec's). Each screen's own list is held (loading) or answered 500 (error); the rest of the
// page loads as usual. Skeletons with a prohibited aria-label and a 2.67:1 "Loading ambulances..." were found
// this way on the screens a11y.spec did not reach.

type Who = keyof typeof ACCOUNTS;
interface Screen { who: Who; path: string; api: string; name: string }
const SCREENS: Screen[] = [
  { who: 'operator', path: '/dashboard/cases', api: '/api/cases', name: 'the cases board' },
  { who: 'operator', path: '/dashboard/ambulance-tracking', api: '/api/ambulances', name: 'the fleet' },
  { who: 'operator', path: '/dashboard/ambulance-map', api: '/api/ambulances', name: 'the ambulance map' },
  { who: 'operator', path: '/dashboard/reports', api: '/api/reports/', name: 'the reports' },
  { who: 'operator', path: '/dashboard/profile', api: '/api/auth/profile', name: 'the profile' },
  { who: 'admin', path: '/admin-dashboard', api: '/api/cases', name: 'the admin overview' },
  { who: 'admin', path: '/admin-dashboard/operators', api: '/api/users', name: 'Manage Operators' },
  { who: 'admin', path: '/admin-dashboard/ambulances', api: '/api/ambulances', name: 'Manage Ambulances' },
  { who: 'admin', path: '/admin-dashboard/cases', api: '/api/cases', name: 'Case Management' },
  { who: 'admin', path: '/admin-dashboard/outbox', api: '/api/outbox', name: 'the outbox' },
  { who: 'admin', path: '/admin-dashboard/reports', api: '/api/reports/', name: 'the admin reports' },
  { who: 'admin', path: '/admin-dashboard/profile', api: '/api/auth/profile', name: 'the admin profile' },
];

/** The screen's own list: its path and everything under it. */
const listOf = (api: string) => apiPath(api, { under: true });
/** Held requests of the screen's own list, left out of "settled". */
const except = (list: RegExp) => ({ ignore: (r: { url(): string }) => list.test(r.url()) });
/** The pointer off whatever it hovers, the page settled over 25 s at most. */
const CHECK = { pointerAt: { x: 1, y: 1 }, settleTimeout: 25_000 };

// Independent screens, no data of their own: the file's tests may share out over the workers.
test.describe.configure({ mode: 'parallel' });

test.beforeEach(({ page }) => { trackRequests(page); });

for (const s of SCREENS) {
  test(`${s.name} while its list loads`, async ({ page }) => {
    const held: Route[] = [];
    const mine = listOf(s.api);
    await page.route(mine, (route) => { held.push(route); });
    await openAs(page, s.who, s.path);
    await expect.poll(() => held.length, { message: `${s.api} asked` }).toBeGreaterThan(0);
    await expectNoViolations(page, `${s.name} loading`, { ...CHECK, ...except(mine) });
  });

  test(`${s.name} when its list failed`, async ({ page }) => {
    const mine = listOf(s.api);
    await page.route(mine, (route) => route.fulfill({ status: 500, json: { error: 'Internal server error' } }));
    // The page's clock jumps over the retries' back-off (1 s, then 2 s) instead of waiting it out.
    await page.clock.install();
    await openAs(page, s.who, s.path);
    // Failed for good: the query's own retries are over (a button waits disabled with a spinner while
    // they run, and one enabled during axe's check is caught half way through its fade).
    await skipRetries(page, () => settled(page, { timeout: 25_000 }));
    await settled(page, { timeout: 25_000 });
    await expect(page.locator('button:disabled .MuiCircularProgress-root')).toHaveCount(0, { timeout: 20_000 });
    await expectNoViolations(page, `${s.name} failed`, CHECK);
  });
}

// The public pages while their one request is held: the patient's location page and the tracking page (a
// driver's page is the tracking page's data with its own controls). No sign-in; the link need not be real
// for its loading state.
const PUBLIC = [
  { path: '/track/1?t=held-token', api: '/api/track/', name: 'the tracking page' },
  { path: '/driver/1?t=held-token', api: '/api/track/', name: 'the driver page' },
  { path: '/location/00000000-0000-4000-8000-000000000000?t=held-token', api: '/api/location/', name: 'the location page' },
];
for (const p of PUBLIC) {
  test(`${p.name} while its link is checked`, async ({ page }) => {
    const held: Route[] = [];
    const mine = listOf(p.api);
    await page.route(mine, (route) => { held.push(route); });
    // SPEC's progress bar on the tracking page moves for ever: with reduced motion it steps, and the page can settle.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(p.path);
    await expect.poll(() => held.length, { message: `${p.api} asked` }).toBeGreaterThan(0);
    await expectNoViolations(page, `${p.name} loading`, { ...CHECK, ...except(mine) });
  });
}
