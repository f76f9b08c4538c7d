import { type Locator, expect, type Page, type Request } from '@playwright/test';

export const ACCOUNTS = {
  admin: { email: 'admin@lifeline.test', username: 'Admin', phone: '5550100' },
  operator: { email: 'operator@lifeline.test', username: 'Operator', phone: '5550101' },
} as const;

/** Opens the sign-in page (of another server when given its URL), fills the form and presses GET STARTED. */
export async function submitSignIn(page: Page, who: keyof typeof ACCOUNTS, signinUrl = '/signin') {
  const a = ACCOUNTS[who];
  await page.goto(signinUrl);
  await page.getByLabel('Email').fill(a.email);
  await page.getByLabel('Username').fill(a.username);
  await page.getByLabel('Phone Number').fill(a.phone);
  await page.getByRole('button', { name: 'GET STARTED' }).click();
}

/** Signs in through the sign-in form, as a person would (for the specs about signing in). */
export async function signInWithForm(page: Page, who: keyof typeof ACCOUNTS) {
  await submitSignIn(page, who);
  await expect(page).toHaveURL(who === 'admin' ? /\/admin-dashboard$/ : /\/dashboard$/);
}

/**
 * Signs in as `who` the way the sign-in page leaves a session (its token and user in localStorage,
 * web/src/auth/session.ts), without loading the sign-in page: a spec not about signing in saves the
 * app's boot that the form costs. Then opens `path`, or the role's landing screen as the form does.
 * Stored once, not by an init script: a later sign-out or reload does not sign in again.
 */
/** The session as the sign-in page stores it (web/src/auth/session.ts): run in the page. */
function writeSession({ token, user }: { token: string; user: { email: string; role: string; username?: string } }) {
  localStorage.setItem('userEmail', user.email);
  localStorage.setItem('userToken', token);
  localStorage.setItem('userRole', user.role);
  localStorage.setItem('userName', user.username || user.email);
}

export async function signIn(page: Page, who: keyof typeof ACCOUNTS, path?: string) {
  await storeSession(page, who);
  if (path !== undefined) return void await page.goto(path);
  await page.goto(who === 'admin' ? '/admin-dashboard' : '/dashboard');
  await expect(page).toHaveURL(who === 'admin' ? /\/admin-dashboard$/ : /\/dashboard$/);
}

/**
 * Stores `who`'s session as the sign-in page leaves it, without opening a screen: a test that routes
 * requests before its first screen opens pays for one boot of the app, not two.
 */
export async function storeSession(page: Page, who: keyof typeof ACCOUNTS): Promise<void> {
  const res = await page.request.post('/api/auth/signin', { data: ACCOUNTS[who] });
  expect(res.ok(), await res.text()).toBeTruthy();
  const { token, user } = await res.json();
  await page.goto('/favicon.svg'); // a small document of the app's origin, to write its storage
  await page.evaluate(writeSession, { token, user });
}

/**
 * Waits for `check` while the page's clock (page.clock.install() before the page loaded) jumps a
 * second at a time: what the page waits out by its timers (a failing query's retries after 1 s and
 * 2 s, a toast's five seconds) comes at once instead of in real time. `check` should fail fast (a
 * short expect timeout): each miss moves the clock on.
 */
export async function skipTimeUntil(page: Page, check: () => Promise<void>, timeout = 30_000): Promise<void> {
  await expect(async () => {
    await page.clock.fastForward(1_000);
    await check();
  }).toPass({ intervals: [50], timeout });
}

/**
 * Lets every failing query of a settled page run out its retries without waiting out the back-off:
 * once no request is in flight, the clock (installed before the page loaded) jumps over the next
 * retry's delay. Four rounds cover the two retries and a query that starts after another's answer;
 * the caller still checks the final state, so a round too few costs real time, not a wrong result.
 * Needs trackRequests(page).
 */
export async function skipRetries(page: Page, settle: () => Promise<void> = () => settled(page)): Promise<void> {
  for (let round = 0; round < 4; round++) {
    await settle();
    await page.clock.fastForward(2_000);
  }
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

/** An ambulance as the API lists it, found by its plate (API set-up for a test). */
export async function ambulanceByPlate(page: Page, token: string, plate: string): Promise<{ id: number; status: string; license_plate: string }> {
  const res = await page.request.get('/api/ambulances', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBeTruthy();
  const found = (await res.json()).ambulances.find((a: { license_plate: string }) => a.license_plate === plate);
  expect(found, `ambulance ${plate}`).toBeTruthy();
  return found;
}

/** Dispatches a case through the API as the operator form does (POST /live-location); resolves with its id. */
export async function dispatchCase(page: Page, token: string, body: { to: string; patientName: string; description: string; ambulanceId: number }): Promise<string> {
  const res = await page.request.post('/live-location', {
    headers: { authorization: `Bearer ${token}` },
    data: { to: body.to, status: 'active', patientName: body.patientName, description: body.description, license_plate: body.ambulanceId },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).caseId;
}

/** Closes a case through the API (test clean-up: frees its ambulance). */
export async function closeCase(page: Page, token: string, caseId: string): Promise<void> {
  const res = await page.request.put(`/api/cases/${caseId}`, { headers: { authorization: `Bearer ${token}` }, data: { status: 'closed' } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Frees an ambulance for a test by closing the active case that holds it, if any; resolves with the ambulance. */
export async function freeAmbulance(page: Page, token: string, plate: string): Promise<{ id: number; status: string; license_plate: string }> {
  const ambulance = await ambulanceByPlate(page, token, plate);
  const res = await page.request.get('/api/cases', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBeTruthy();
  const holding = ((await res.json()).cases as { id: string; status: string; ambulance_id: number | null }[])
    .filter((c) => c.status === 'active' && c.ambulance_id === ambulance.id);
  for (const c of holding) await closeCase(page, token, c.id);
  return holding.length ? ambulanceByPlate(page, token, plate) : ambulance;
}

/** The patient's location link of a case as a path with its own token (`/location/{caseId}?t=…`), from the queued e-mail. */
export async function locationPath(page: Page, caseId: string): Promise<string> {
  const [link] = await outboxLinks(page, caseId, 'share-location');
  expect(link, `share-location link of case ${caseId}`).toMatch(/^\/location\/[0-9a-f-]{36}\?t=[\w-]{43}$/);
  return link;
}

/** The patient's share call (what the location page sends) for a case: `/api/location/{caseId}?t=…`. */
export const locationApiPath = async (page: Page, caseId: string) => `/api${await locationPath(page, caseId)}`;

/** The links the server queued for a case (admin outbox), by mail kind, as paths (`/track/…?t=…`). */
export async function outboxLinks(page: Page, caseId: string, kind: string): Promise<string[]> {
  const admin = await apiToken(page, 'admin');
  // The outbox answers a page at a time, newest first: read on until the case's mail is behind us.
  const messages: { kind: string; case_id: string | null; links: string[] }[] = [];
  for (let cursor: string | null = '', seen = false; cursor !== null;) {
    const res = await page.request.get(`/api/outbox?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.ok()).toBeTruthy();
    const body = (await res.json()) as { messages: typeof messages; next_cursor: string | null };
    messages.push(...body.messages);
    const ofCase = body.messages.map((m) => m.case_id === caseId);
    // A case's mail is queued together: once seen, a page that ends on another case's mail is the last needed.
    seen ||= ofCase.includes(true);
    cursor = seen && !ofCase[ofCase.length - 1] ? null : body.next_cursor;
  }
  return messages
    .filter((m) => m.case_id === caseId && m.kind === kind)
    .flatMap((m) => m.links)
    .map((link) => {
      const url = new URL(link);
      return url.pathname + url.search;
    });
}

/**
 * Closes every open call (active or pending) as the admin, so each spec that dispatches starts
 * and leaves the fleet free: specs share one server, and a busy ambulance left behind would
 * change what the next spec's forms and counters show.
 */
export async function closeOpenCalls(page: Page): Promise<void> {
  const token = await apiToken(page, 'admin');
  const res = await page.request.get('/api/cases', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBeTruthy();
  const open = ((await res.json()).cases as { id: string; status: string }[]).filter((c) => c.status === 'active' || c.status === 'pending');
  for (const c of open) await closeCase(page, token, c.id);
}

/**
 * The page's requests still in flight, counted from now on (call before the first goto). The
 * socket's own transport (a WebSocket, or long polls when it falls back) is left out: it never ends.
 */
const inFlight = new WeakMap<Page, Set<Request>>();
export function trackRequests(page: Page): void {
  if (inFlight.has(page)) return;
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on('request', (r) => { if (!r.url().includes('/socket.io/')) pending.add(r); });
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
}

/**
 * Waits until the page is settled: no request of the page in flight, no transition or animation
 * running, fonts loaded, the header's live connection (where there is one) up, all of it still
 * so a few checks in a row (a response can start a render that starts a fade). This, not a fixed
 * sleep, is what a test waits for before measuring colours (axe) or taking a screenshot: a
 * sleep is too short on a busy machine and too long on a quiet one. Needs trackRequests(page).
 * `ignore` leaves out requests a test holds on purpose (a screen caught while it loads).
 */
export async function settled(page: Page, { timeout = 10_000, calmChecks = 3, ignore }: { timeout?: number; calmChecks?: number; ignore?: (r: Request) => boolean } = {}): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error('settled(page) needs trackRequests(page) before the page loads');
  const deadline = Date.now() + timeout;
  for (let calm = 0; ;) {
    const onPage = await page.evaluate(async () => {
      await document.fonts.ready;
      const live = document.querySelector('[data-testid="connection-indicator"]');
      const reconnecting = live && live.textContent !== 'Live' ? ['the live connection'] : [];
      // Finite transitions and animations only: an endless spinner is a state, not a change.
      const moving = document.getAnimations()
        .filter((a) => (a.pending || a.playState === 'running') && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => {
          const el = a.effect instanceof KeyframeEffect ? a.effect.target : null;
          const what = a instanceof CSSTransition ? `transition of ${a.transitionProperty}` : a instanceof CSSAnimation ? `animation ${a.animationName}` : 'animation';
          return `${what} on ${el ? [el.tagName.toLowerCase(), ...[...el.classList].slice(0, 3)].join('.') : '?'}`;
        });
      return [...reconnecting, ...moving];
    });
    const busy = [...[...pending].filter((r) => !ignore?.(r)).map((r) => `${r.method()} ${r.url()}`), ...onPage];
    calm = busy.length ? 0 : calm + 1;
    if (calm >= calmChecks) return;
    if (Date.now() > deadline) throw new Error(`the page did not settle in ${timeout} ms; still busy: ${busy.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens `path` signed in as `who` (the session as the sign-in page stores it), with the page's clock untouched. */
export async function openAs(page: Page, who: keyof typeof ACCOUNTS, path: string): Promise<void> {
  const res = await page.request.post('/api/auth/signin', { data: ACCOUNTS[who] });
  expect(res.ok()).toBeTruthy();
  const { token, user } = await res.json();
  await page.addInitScript(writeSession, { token, user });
  await page.goto(path);
  await expect(page.locator('.boot-shell')).toHaveCount(0, { timeout: 20_000 });
}

/**
 * Waits until no transition or finite animation runs on the page (a toast sliding in, a menu
 * opening): what a screenshot or a measured box waits for, instead of a guessed pause.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) =>
    !(a.pending || a.playState === 'running') || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)));
}

/**
 * Requests for exactly `path` whatever their query (the board is bare /api/cases, a history page
 * /api/cases?scope=all&…), or with `under` also every path below it: a RegExp for page.route, because
 * Chromium then hands Playwright only the matching requests. A function matcher makes the browser stop
 * every request of the page (each script, style and image) and ask the test runner about it, which
 * cost each page load about a second of both processes' CPU. page.unroute finds the route by an equal
 * RegExp, so calling this again gives the same matcher.
 */
export function apiPath(path: string, { under = false }: { under?: boolean } = {}): RegExp {
  const escaped = path.replace(/\/$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^https?://[^/]+${escaped}${under ? '(?:/[^?#]*)?' : ''}(?:[?#].*)?$`);
}

/** A tone the page started (the Web Audio alerts): its frequency and wave. */
export interface Tone { hz: number; type: OscillatorType }

/**
 * Records every tone a page of `target` (a page or a whole context) starts, before any page
 * script: AudioContext wrapped so each oscillator's start is kept in order (read with `tones`).
 */
export async function recordTones(target: Pick<Page, 'addInitScript'>) {
  await target.addInitScript(() => {
    const w = window as unknown as { __tones: { hz: number; type: OscillatorType }[] };
    w.__tones = [];
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      createOscillator() {
        const osc = super.createOscillator();
        const start = osc.start.bind(osc);
        osc.start = (when?: number) => {
          w.__tones.push({ hz: osc.frequency.value, type: osc.type });
          start(when);
        };
        return osc;
      }
    };
  });
}

/** The tones a page has started so far (recordTones). */
export const tones = (page: Page) => page.evaluate(() => (window as unknown as { __tones: Tone[] }).__tones);

/**
 * In the Add unit dialog: clears whatever the plan ticked (one unit or a car and an ambulance), then ticks
 * exactly `plates`. The ticked set is asked again after each untick: a list of it taken once points past its
 * end as it shrinks (its second entry no longer exists once the first is unticked) and would wait forever.
 */
export async function chooseUnits(dialog: Locator, plates: string[]): Promise<void> {
  await expect(dialog.getByTestId('add-unit-choice').first()).toBeVisible();
  const ticked = dialog.getByRole('checkbox', { checked: true });
  while ((await ticked.count()) > 0) await ticked.first().uncheck();
  for (const plate of plates) await dialog.getByRole('checkbox', { name: new RegExp(plate) }).check();
  await expect(ticked).toHaveCount(plates.length);
}
