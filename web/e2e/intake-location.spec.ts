import { expect, test, type Page, noOpenCallsAroundEachTest } from './fixtures';
import { animationsDone, apiToken, freeAmbulance, signIn } from './helpers';

// Issue 16, location at intake: the New Case form's one location box (coordinates, a plus code,
// a pin on the map; addresses need the geocoder, which is off here) and the quickest free
// ambulance preselected as soon as the location is known.

noOpenCallsAroundEachTest();

interface Suggestion { ambulance_id: number; license_plate: string; distance_m: number; eta_s: number; stale: boolean }
interface SearchResult { displayName: string; latitude: number; longitude: number; source: string }

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** What the server understands a text as (the same call the form makes). */
async function understood(page: Page, token: string, q: string): Promise<SearchResult> {
  const res = await page.request.get(`/api/geocode/search?q=${encodeURIComponent(q)}`, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  const { results } = await res.json() as { results: SearchResult[] };
  expect(results, `results for ${q}`).toHaveLength(1);
  return results[0];
}

/** The server's ranking of the free ambulances for a point. */
async function suggestionsFor(page: Page, token: string, latitude: number, longitude: number): Promise<Suggestion[]> {
  const res = await page.request.get(`/api/dispatch/suggestions?latitude=${latitude}&longitude=${longitude}`, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  const { suggestions } = await res.json() as { suggestions: Suggestion[] };
  expect(suggestions.length, 'free ambulances ranked').toBeGreaterThan(1);
  return suggestions;
}

async function openForm(page: Page) {
  // Tall enough that the whole form fits: its screenshots are not crossed by the sticky header.
  await page.setViewportSize({ width: 1280, height: 1200 });
  await signIn(page, 'operator', '/dashboard/new-case');
  await expect(page.getByRole('combobox', { name: /Assign Ambulance/ })).toBeEnabled();
}

async function fillCaller(page: Page, name: string, email: string) {
  await page.getByLabel('Patient Name').fill(name);
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('combobox', { name: /Emergency Type/ }).click();
  await page.getByRole('option', { name: 'Injury' }).click();
}

/** Dispatches and answers the created case as the API has it. */
async function dispatchAndRead(page: Page, token: string) {
  await page.getByRole('button', { name: 'Dispatch Emergency' }).click();
  await expect(page.getByText('Emergency case created and ambulance assigned successfully!')).toBeVisible();
  const link = page.getByTestId('share-link');
  await expect(link).toHaveText(/\/location\/[0-9a-f-]{36}\?t=/);
  const caseId = new URL((await link.textContent())!).pathname.split('/location/')[1];
  const res = await page.request.get(`/api/cases/${caseId}`, { headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).case as { ambulance_id: number | null; intake_location: SearchResult & { address: string } | null; latitude: number | null; longitude: number | null };
}

const marker = (page: Page) => page.getByTestId('intake-map').locator('.leaflet-marker-icon');
const ambulanceSelect = (page: Page) => page.getByRole('combobox', { name: /Assign Ambulance/ });
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('intake by coordinates: understood, marked, the quickest free ambulance preselected, dispatched with the location', async ({ page }) => {
  const token = await apiToken(page, 'operator');
  const typed = '17.4126, 78.4482';
  const place = await understood(page, token, typed);
  expect(place).toMatchObject({ latitude: 17.4126, longitude: 78.4482, source: 'coordinates' });
  // TS09 EA 1001 reports from exactly these coordinates now (a fresh fix: another spec's fresher
  // positions of other units would otherwise rank above its seeded, stale one).
  const unit = await freeAmbulance(page, token, 'TS09 EA 1001');
  const fix = await page.request.post(`/api/ambulances/${unit.id}/position`, { headers: { authorization: `Bearer ${token}` }, data: { latitude: 17.4126, longitude: 78.4482 } });
  expect(fix.ok(), await fix.text()).toBeTruthy();
  const [quickest] = await suggestionsFor(page, token, place.latitude, place.longitude);
  expect(quickest.license_plate).toBe('TS09 EA 1001');

  await openForm(page);
  await expect(page.getByTestId('intake-understood')).toHaveText(/No location yet/);
  await expect(ambulanceSelect(page)).not.toContainText('TS09');
  const box = page.getByRole('textbox', { name: 'Location' });
  await expect(box).toHaveAccessibleDescription('Address, plus code, or lat, lon — or drop a pin');
  await box.fill(typed);
  await box.press('Enter');
  // Enter searched; it did not submit the form.
  await expect(page.getByText('Please fill all required fields')).toHaveCount(0);

  await expect(page.getByTestId('intake-understood')).toContainText(`Location: ${place.displayName}`);
  await expect(page.getByTestId('intake-understood')).toContainText('from coordinates');
  await expect(marker(page)).toHaveCount(1);
  await expect(ambulanceSelect(page)).toHaveText(new RegExp(`^${escape(quickest.license_plate)} — .+, ~\\d+ min`));
  await expect(page.getByText(/^Suggested: the quickest of \d+ available$/)).toBeVisible();
  const chips = page.getByTestId('suggested-ambulances').getByRole('button');
  await expect(chips.first()).toHaveAttribute('aria-pressed', 'true');
  await expect(chips.first()).toContainText(quickest.license_plate);

  await fillCaller(page, 'Lakshmi Coordinates', 'lakshmi.coords@example.com');
  await animationsDone(page); // the select's menu transition
  await page.getByRole('region', { name: 'New Emergency Case' }).screenshot({ path: '.tmp/intake-location-coordinates.png' });
  const created = await dispatchAndRead(page, token);
  expect(created.ambulance_id).toBe(quickest.ambulance_id);
  expect(created.intake_location).toMatchObject({ latitude: 17.4126, longitude: 78.4482, address: place.displayName, source: 'coordinates' });
  expect(created).toMatchObject({ latitude: 17.4126, longitude: 78.4482 });
  // A new form: the location box is empty again, nothing preselected.
  await expect(page.getByTestId('intake-understood')).toHaveText(/No location yet/);
  await expect(marker(page)).toHaveCount(0);
});

test('intake by a plus code: understood, and another suggestion taken with one click', async ({ page }) => {
  const token = await apiToken(page, 'operator');
  // The full plus code of the demo's TS09 EA 1003 (Charminar, 17.3616, 78.4747), checked with the Open Location Code library.
  const code = '7J9W9F6F+JV';
  const place = await understood(page, token, code);
  expect(place.source).toBe('plus_code');
  expect(place.latitude).toBeCloseTo(17.3616, 3);
  expect(place.longitude).toBeCloseTo(78.4747, 3);
  const [quickest, second] = await suggestionsFor(page, token, place.latitude, place.longitude);

  await openForm(page);
  const box = page.getByRole('textbox', { name: 'Location' });
  await box.fill(code);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('intake-understood')).toContainText(`Location: ${place.displayName}`);
  await expect(page.getByTestId('intake-understood')).toContainText('from plus code');
  await expect(marker(page)).toHaveCount(1);
  await expect(ambulanceSelect(page)).toHaveText(new RegExp(`^${escape(quickest.license_plate)} — `));

  // The dispatcher knows better: the second quickest, in one click; it stays picked by hand.
  const other = page.getByTestId('suggested-ambulances').getByRole('button', { name: new RegExp(escape(second.license_plate)) });
  await other.click();
  await expect(other).toHaveAttribute('aria-pressed', 'true');
  await expect(ambulanceSelect(page)).toHaveText(new RegExp(`^${escape(second.license_plate)} — `));
  await expect(page.getByText(/available, quickest first$/)).toBeVisible();
  await page.getByRole('region', { name: 'New Emergency Case' }).screenshot({ path: '.tmp/intake-location-plus-code.png' });

  // The select lists them all by arrival, with distance and ETA.
  await ambulanceSelect(page).click();
  const options = page.getByRole('option');
  await expect(options.first()).toContainText(new RegExp(`^${escape(quickest.license_plate)} — .+, ~\\d+ min`));
  await page.keyboard.press('Escape');

  await fillCaller(page, 'Imran Pluscode', 'imran.plus@example.com');
  const created = await dispatchAndRead(page, token);
  expect(created.ambulance_id).toBe(second.ambulance_id);
  expect(created.intake_location).toMatchObject({ address: place.displayName, source: 'plus_code' });
  expect(created.intake_location!.latitude).toBeCloseTo(place.latitude, 6);
});

test('intake by a pin dropped on the map, and cleared', async ({ page }) => {
  const token = await apiToken(page, 'operator');
  const config = await (await page.request.get('/api/config')).json() as { centre: { latitude: number; longitude: number } };

  await openForm(page);
  const map = page.getByTestId('intake-map').locator('.leaflet-container');
  await expect(map).toBeVisible();
  // The map opens at the centre: a click in its middle drops the pin there.
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const understoodLine = page.getByTestId('intake-understood');
  await expect(understoodLine).toContainText(/Location: -?\d+\.\d{5}, -?\d+\.\d{5}/);
  await expect(understoodLine).toContainText('from pin on the map');
  await expect(marker(page)).toHaveCount(1);
  const [, lat, lon] = /Location: (-?\d+\.\d{5}), (-?\d+\.\d{5})/.exec((await understoodLine.textContent())!)!;
  expect(Number(lat)).toBeCloseTo(config.centre.latitude, 2);
  expect(Number(lon)).toBeCloseTo(config.centre.longitude, 2);
  const [quickest] = await suggestionsFor(page, token, Number(lat), Number(lon));
  await expect(ambulanceSelect(page)).toHaveText(new RegExp(`^${escape(quickest.license_plate)} — `));

  // Cleared: no location, no marker, nothing preselected (a call can still go without one).
  await page.getByRole('button', { name: 'Clear location' }).click();
  await expect(understoodLine).toHaveText(/No location yet/);
  await expect(marker(page)).toHaveCount(0);
  await expect(ambulanceSelect(page)).not.toContainText('TS09');

  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(marker(page)).toHaveCount(1);
  await fillCaller(page, 'Priya Pin', 'priya.pin@example.com');
  const created = await dispatchAndRead(page, token);
  expect(created.ambulance_id).toBe(quickest.ambulance_id);
  expect(created.intake_location).toMatchObject({ address: `${lat}, ${lon}`, source: 'pin' });
});

test('an address without a geocoder says what still works', async ({ page }) => {
  await openForm(page);
  const box = page.getByRole('textbox', { name: 'Location' });
  await box.fill('Charminar, Hyderabad');
  await box.press('Enter');
  await expect(box).toHaveAccessibleDescription(/address search is unavailable; enter coordinates, a plus code or drop a pin/i);
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('intake-understood')).toHaveText(/No location yet/);
  await page.getByRole('region', { name: 'New Emergency Case' }).screenshot({ path: '.tmp/intake-location-no-geocoder.png' });
});
