import { beforeAll, describe, expect, it } from 'vitest';
import { type LatLon, distanceMeters } from '../../contract';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { expectStatus, locationToken, plateOf, rememberLocationLink, shareLocation } from '../../testing/dispatchHelpers';
import { type TestServer, useTestServer } from '../../testing/testServer';

/**
 * GET /api/dispatch/suggestions?case_id= (issue 25): the free units for a call's best-known place
 * (the patient's shared fix, else the intake location), every free unit offered (never-placed ones
 * last, without estimates), the units on less urgent calls that could be diverted to it, and the
 * call with no place yet (located: false). The ?latitude=&longitude= form is unchanged.
 */
const TARGET = { latitude: 17.385, longitude: 78.4867 };
/** About `km` kilometres north of the target. */
const north = (km: number) => ({ latitude: TARGET.latitude + km / 111.195, longitude: TARGET.longitude });
const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
/** The model's estimate with the defaults (road factor 1.3, 30 km/h): what both forms answer. */
const estimate = (from: LatLon, to: LatLon = TARGET) => {
  const d = distanceMeters(from, to);
  return { distance_m: Math.round(d), eta_s: Math.round((d * 1.3) / (30 / 3.6)) };
};
/** What every unit here is (placeFleet makes them all ALS), as each suggestion says it. */
const ALS = { capability: 'als', can_transport: true, meets_need: true } as const;
const intakeAt = (p: LatLon) => ({ ...p, address: `${p.latitude}, ${p.longitude}`, source: 'coordinates' });

interface Placement { km?: number; ageS?: number; source?: string; status?: string }
/** Ends every open call, puts each named ambulance where a test wants it (no `km`: no position); the rest go to maintenance. */
async function placeFleet(s: TestServer, fleet: Record<number, Placement>) {
  await s.ctx.db('cases').whereIn('status', ['active', 'pending']).update({ status: 'closed', closed_at: new Date().toISOString() });
  await s.ctx.db('assignments').whereNotIn('status', ['cleared', 'cancelled']).update({ status: 'cancelled', cancelled_at: new Date().toISOString() });
  // Every unit an ALS ambulance, whatever the demo fleet holds: these tests are about places and steps, not capability.
  await s.ctx.db('ambulances').update({ status: 'maintenance', capability: 'als' });
  for (const [id, p] of Object.entries(fleet)) {
    const at = p.km == null ? { latitude: null, longitude: null, position_at: null, position_source: null } : { ...north(p.km), position_at: ago(p.ageS ?? 5), position_source: p.source ?? 'staff' };
    await s.ctx.db('ambulances').where({ id: Number(id) }).update({ status: p.status ?? 'available', ...at });
  }
}

const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;
beforeAll(async () => { operator = await s.signIn('operator'); });

type Body = Record<string, unknown>;
async function newCall(priority: number, extra: Body = {}) {
  const body = { to: 'near@example.com', patientName: `Near P${priority}`, description: 'Caller on the line', priority, status: 'pending', ...extra };
  return expectStatus(rememberLocationLink(await s.api('POST', '/api/cases', { token: operator, body })), 201, 'create').body.case as { id: string };
}
const forCase = (id: string, token = operator) => s.api('GET', `/api/dispatch/suggestions?case_id=${id}`, { token });
const suggestionsFor = async (id: string) => expectStatus(await forCase(id), 200, 'suggestions').body;
const step = async (ambulanceId: number, status: string) =>
  expectStatus(await s.api('POST', `/api/ambulances/${ambulanceId}/unit-status`, { token: operator, body: { status } }), 200, status);

describe('the free units for a call', () => {
  it('ranked for its intake location as the ?latitude=&longitude= form ranks them, then the never-placed ones, without estimates', async () => {
    await placeFleet(s, {
      1: { km: 3, source: 'driver', ageS: 10 },
      2: { km: 1, ageS: 10 },
      4: { km: 0.2, status: 'maintenance' },
      5: {}, // available, no position
      6: { km: 0.3, source: 'driver', ageS: 90 }, // nearest, but stale
      8: { km: 5, source: 'owntracks', ageS: 10 },
    });
    const call = await newCall(2, { intake_location: intakeAt(TARGET) });
    const res = await suggestionsFor(call.id);
    const byPoint = expectStatus(await s.api('GET', `/api/dispatch/suggestions?latitude=${TARGET.latitude}&longitude=${TARGET.longitude}&priority=2`, { token: operator }), 200, 'point').body;
    expect(Object.keys(byPoint).sort()).toEqual(['model', 'plan', 'suggestions']);
    expect(res.located).toBe(true);
    expect(res.model).toEqual({ road_factor: 1.3, speed_kmh: 30, calibrated: false, trips: 0 });
    const strip = (x: { position_age_s: number | null }) => ({ ...x, position_age_s: expect.any(Number) });
    expect(res.suggestions).toEqual([
      ...byPoint.suggestions.map(strip),
      { ambulance_id: 5, license_plate: plateOf(5), distance_m: null, eta_s: null, position_age_s: null, stale: true, ...ALS },
    ]);
    expect(res.suggestions.map((x: { ambulance_id: number }) => x.ambulance_id)).toEqual([2, 1, 8, 6, 5]);
    expect(res.suggestions[0]).toMatchObject({ ...estimate(north(1)), stale: false });
    expect(res.divertible).toEqual([]);
  });

  it("the patient's shared fix wins over the intake location", async () => {
    await placeFleet(s, { 1: { km: 1 }, 2: { km: 9 } });
    // An active call taken without a unit (waiting; its link shares): intake 10 km north, the patient at the target.
    const call = await newCall(1, { status: 'active', intake_location: intakeAt(north(10)) });
    expect((await suggestionsFor(call.id)).suggestions.map((x: { ambulance_id: number }) => x.ambulance_id)).toEqual([2, 1]);
    expectStatus(await shareLocation(s, call.id, { ...TARGET, accuracy: 10 }), 200, 'share');
    const res = await suggestionsFor(call.id);
    expect(res.suggestions.map((x: { ambulance_id: number; distance_m: number }) => [x.ambulance_id, x.distance_m])).toEqual([[1, estimate(north(1)).distance_m], [2, estimate(north(9)).distance_m]]);
  });

  it('a call with no place yet: located false, every free unit in id order, ages known, no estimates', async () => {
    await placeFleet(s, { 3: { km: 2, ageS: 30 }, 1: {}, 7: { km: 1, source: 'driver', ageS: 200 } });
    const call = await newCall(3);
    const res = await suggestionsFor(call.id);
    expect(res.located).toBe(false);
    expect(res.suggestions).toEqual([
      { ambulance_id: 1, license_plate: plateOf(1), distance_m: null, eta_s: null, position_age_s: null, stale: true, ...ALS },
      { ambulance_id: 3, license_plate: plateOf(3), distance_m: null, eta_s: null, position_age_s: expect.any(Number), stale: false, ...ALS },
      { ambulance_id: 7, license_plate: plateOf(7), distance_m: null, eta_s: null, position_age_s: expect.any(Number), stale: true, ...ALS },
    ]);
    expect(res.suggestions[1].position_age_s).toBeGreaterThanOrEqual(30);
    expect(res.suggestions[2].position_age_s).toBeGreaterThanOrEqual(200);
  });
});

describe('the units that could be diverted to a call', () => {
  let calls: Record<string, { id: string }>;
  beforeAll(async () => {
    await placeFleet(s, { 1: { km: 2 }, 2: { km: 1 }, 3: { km: 0.5 }, 5: {}, 6: { km: 0.2 }, 7: { km: 4 }, 8: { km: 6 } });
    calls = {
      p3dispatched: await newCall(3, { status: 'active', ambulance_id: 1 }),
      p4enRoute: await newCall(4, { status: 'active', ambulance_id: 2 }),
      p4onScene: await newCall(4, { status: 'active', ambulance_id: 3 }),
      p1: await newCall(1, { status: 'active', ambulance_id: 6 }),
      p2enRoute: await newCall(2, { status: 'active', ambulance_id: 7 }),
      p4unplaced: await newCall(4, { status: 'active', ambulance_id: 5 }),
    };
    await step(2, 'en_route');
    await step(3, 'on_scene');
    await step(7, 'en_route');
  });

  it('for a P1: the units on P2–P4 calls not yet on scene, ranked by estimated arrival, each with its call', async () => {
    const call = await newCall(1, { intake_location: intakeAt(TARGET) });
    const res = await suggestionsFor(call.id);
    expect(res.suggestions.map((x: { ambulance_id: number }) => x.ambulance_id)).toEqual([8]);
    expect(res.divertible).toEqual([
      { ambulance_id: 2, license_plate: plateOf(2), ...estimate(north(1)), position_age_s: expect.any(Number), stale: false, ...ALS, case_id: calls.p4enRoute.id, case_priority: 4, unit_status: 'en_route' },
      { ambulance_id: 1, license_plate: plateOf(1), ...estimate(north(2)), position_age_s: expect.any(Number), stale: false, ...ALS, case_id: calls.p3dispatched.id, case_priority: 3, unit_status: 'dispatched' },
      { ambulance_id: 7, license_plate: plateOf(7), ...estimate(north(4)), position_age_s: expect.any(Number), stale: false, ...ALS, case_id: calls.p2enRoute.id, case_priority: 2, unit_status: 'en_route' },
      { ambulance_id: 5, license_plate: plateOf(5), distance_m: null, eta_s: null, position_age_s: null, stale: true, ...ALS, case_id: calls.p4unplaced.id, case_priority: 4, unit_status: 'dispatched' },
    ]);
  });

  it('for a P3: only the units on P4 calls; for a P4: none', async () => {
    const p3 = await newCall(3, { intake_location: intakeAt(TARGET) });
    expect((await suggestionsFor(p3.id)).divertible.map((x: { ambulance_id: number }) => x.ambulance_id)).toEqual([2, 5]);
    const p4 = await newCall(4, { intake_location: intakeAt(TARGET) });
    expect((await suggestionsFor(p4.id)).divertible).toEqual([]);
  });

  it('for a call with no place: in id order, without estimates', async () => {
    const call = await newCall(2);
    const res = await suggestionsFor(call.id);
    expect(res.located).toBe(false);
    expect(res.divertible.map((x: { ambulance_id: number; eta_s: null; case_id: string }) => [x.ambulance_id, x.eta_s, x.case_id]))
      .toEqual([[1, null, calls.p3dispatched.id], [2, null, calls.p4enRoute.id], [5, null, calls.p4unplaced.id]]);
  });

  it('what it offers, POST /api/cases/{id}/dispatch takes: the first divertible unit goes, and leaves the list', async () => {
    const call = await newCall(1, { intake_location: intakeAt(TARGET) });
    const [first] = (await suggestionsFor(call.id)).divertible;
    const res = await s.api('POST', `/api/cases/${call.id}/dispatch`, { token: operator, body: { ambulance_id: first.ambulance_id, take_from_case_id: first.case_id } });
    expect(res).toMatchObject({ status: 200, body: { case: { ambulance_id: first.ambulance_id }, requeued: { id: first.case_id, status: 'pending' } } });
    const next = await newCall(1, { intake_location: intakeAt(TARGET) });
    expect((await suggestionsFor(next.id)).divertible.map((x: { ambulance_id: number }) => x.ambulance_id)).not.toContain(first.ambulance_id);
  });
});

describe('the query', () => {
  it.each([
    ['case_id=42', 400, 'case_id: must be a case id'],
    ['case_id=', 400, 'case_id: must be a case id'],
    ['case_id=00000000-0000-4000-8000-000000000000&case_id=00000000-0000-4000-8000-000000000001', 400, /^case_id: /],
    ['case_id=00000000-0000-4000-8000-000000000000&latitude=17.4&longitude=78.5', 400, 'give either case_id or latitude and longitude, not both'],
    ['case_id=00000000-0000-4000-8000-000000000000', 404, 'Case not found'],
  ])('%s: %i, nothing written', async (q, status, error) => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/dispatch/suggestions?${q}`, { token: operator })), status, error);
  });

  it('staff only: 401 without a session and for a patient link token', async () => {
    const call = await newCall(2);
    expectError(await forCase(call.id, ''), 401, 'Authentication required');
    expectError(await forCase(call.id, await locationToken(s, call.id)), 401, 'Your session has expired or was revoked; please sign in again');
    expect((await forCase(call.id, await s.signIn('admin'))).status).toBe(200);
  });
});
