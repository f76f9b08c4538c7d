import { beforeAll, describe, expect, it } from 'vitest';
import { distanceMeters } from '../../contract';
import { MODEL_CACHE_MS, etaModel, forgetEtaModel } from '../../services/dispatchSuggestions';
import { expectError } from '../../testing/assertions';
import { dispatchCase, expectStatus } from '../../testing/dispatchHelpers';
import { type TestServer, useTestServer } from '../../testing/testServer';

/**
 * GET /api/dispatch/suggestions against a real server: who is a candidate, the order, the
 * per-source stale thresholds (and STALE_AFTER), the calibrated model read from the
 * assignments' recorded trips (and its per-node cache), validation, and the trip distances
 * POST …/unit-status records at on scene. On SQLite, or on PostgreSQL with TEST_ENGINE=postgres.
 */
const TARGET = { latitude: 17.385, longitude: 78.4867 };
/** About `km` kilometres north of the target. */
const north = (km: number) => ({ latitude: TARGET.latitude + km / 111.195, longitude: TARGET.longitude });
const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
const suggestionsPath = (q: string = `latitude=${TARGET.latitude}&longitude=${TARGET.longitude}`) => `/api/dispatch/suggestions?${q}`;

interface Placement { km?: number; ageS?: number; source?: string; status?: string }
/** Puts each demo ambulance where a test wants it (no `km`: no position); the rest go to maintenance. */
async function placeFleet(s: TestServer, fleet: Record<number, Placement>) {
  // Every unit an ALS ambulance, whatever the demo fleet holds: these tests are about places, not capability.
  await s.ctx.db('ambulances').update({ status: 'maintenance', capability: 'als' });
  for (const [id, p] of Object.entries(fleet)) {
    const at = p.km == null ? { latitude: null, longitude: null, position_at: null, position_source: null } : { ...north(p.km), position_at: ago(p.ageS ?? 5), position_source: p.source ?? 'staff' };
    await s.ctx.db('ambulances').where({ id: Number(id) }).update({ status: p.status ?? 'available', ...at });
  }
}

describe('ranking with the default thresholds', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => { operator = await s.signIn('operator'); });

  it('ranks free ambulances by ETA, leaves out busy, maintenance and unplaced ones, and puts a stale fix last', async () => {
    await placeFleet(s, {
      1: { km: 3, source: 'driver', ageS: 10 },
      2: { km: 1, source: 'staff', ageS: 10 },
      3: { km: 0.5, status: 'busy' },
      4: { km: 0.2, status: 'maintenance' },
      5: {}, // available, no position
      6: { km: 0.3, source: 'driver', ageS: 90 }, // nearest, but a browser's fix 90 s old is stale
      7: { km: 2, source: 'osmand', ageS: 90 }, // an app's fix 90 s old is fresh
      8: { km: 5, source: 'owntracks', ageS: 10 },
    });
    const res = await s.api('GET', suggestionsPath(), { token: operator });
    expect(res.status).toBe(200);
    expect(res.body.model).toEqual({ road_factor: 1.3, speed_kmh: 30, calibrated: false, trips: 0 });
    const got = res.body.suggestions as { ambulance_id: number; stale: boolean; distance_m: number; eta_s: number; position_age_s: number; license_plate: string }[];
    expect(got.map((x) => [x.ambulance_id, x.stale])).toEqual([[2, false], [7, false], [1, false], [8, false], [6, true]]);
    const d2 = distanceMeters(north(1), TARGET);
    expect(got[0]).toEqual({ ambulance_id: 2, license_plate: 'TS09 EA 1002', distance_m: Math.round(d2), eta_s: Math.round((d2 * 1.3) / (30 / 3.6)), position_age_s: expect.any(Number), stale: false, capability: 'als', can_transport: true, meets_need: true });
    expect(got[0].position_age_s).toBeGreaterThanOrEqual(10);
    expect(got[4].position_age_s).toBeGreaterThanOrEqual(90);
  });

  it('answers an empty list when no ambulance is free', async () => {
    await placeFleet(s, { 1: { km: 1, status: 'busy' } });
    expect((await s.api('GET', suggestionsPath(), { token: operator })).body.suggestions).toEqual([]);
  });

  it('admits operators and admins, and nobody without a session', async () => {
    await placeFleet(s, { 1: { km: 1 } });
    for (const who of ['operator', 'admin'] as const) {
      const res = await s.api('GET', suggestionsPath(), { token: await s.signIn(who) });
      expect(res.status).toBe(200);
      expect(res.body.suggestions.map((x: { ambulance_id: number }) => x.ambulance_id)).toEqual([1]);
    }
    expect((await s.api('GET', suggestionsPath())).status).toBe(401);
  });

  it.each([
    ['longitude=78.48', 'latitude: required'],
    ['latitude=17.38', 'longitude: required'],
    ['latitude=91&longitude=78.48', 'latitude:'],
    ['latitude=17.38&longitude=-180.5', 'longitude:'],
    ['latitude=north&longitude=78.48', 'latitude: must be a number in decimal degrees'],
    ['latitude=17.38&latitude=17.39&longitude=78.48', 'latitude:'],
  ])('refuses %s with 400', async (q, error) => {
    const res = await s.api('GET', suggestionsPath(q), { token: operator });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(error);
  });
});

describe('STALE_AFTER', () => {
  const s = useTestServer({ env: { STALE_AFTER: 'osmand=600s' } });

  it('keeps a vehicle tracker fresh for 600 s while an OwnTracks fix of the same age is stale', async () => {
    await placeFleet(s, { 1: { km: 1, source: 'owntracks', ageS: 300 }, 2: { km: 4, source: 'osmand', ageS: 300 } });
    const res = await s.api('GET', suggestionsPath(), { token: await s.signIn('operator') });
    expect(res.body.suggestions.map((x: { ambulance_id: number; stale: boolean }) => [x.ambulance_id, x.stale])).toEqual([[2, false], [1, true]]);
  });
});

describe('calibration from the centre\'s trips', () => {
  const s = useTestServer({ env: { ETA_SPEED_KMH: '25', SIGNIN_LIMIT_IP: '100000', LINK_LIMIT_PER_MIN: '100000' } });
  let operator: string;
  beforeAll(async () => { operator = await s.signIn('operator'); });

  /**
   * `n` finished trips of 6 minutes each on one case: trip i at (25 + i) km/h over a road
   * factor of 1.2 + 0.02 × ((8i) mod 21), so with 21 of them the medians are 35 km/h and 1.4.
   */
  async function insertTrips(n: number, daysAgo = 1) {
    const caseId = expectStatus(await s.api('POST', '/api/cases', { token: operator, body: { to: 'p@example.com', status: 'pending', patientName: 'Trip Fixture', description: 'fixture' } }), 201, 'case').body.case.id;
    const rows = Array.from({ length: n }, (_, i) => {
      const start = Date.now() - daysAgo * 86_400_000 - i * 3_600_000;
      const driven = (25 + i) * 100;
      const at = (ms: number) => new Date(ms).toISOString();
      return {
        case_id: caseId, ambulance_id: null, license_plate: 'TS09 EA 1001', status: 'cleared',
        dispatched_at: at(start - 60_000), en_route_at: at(start), on_scene_at: at(start + 360_000), cleared_at: at(start + 1_800_000),
        travel_distance_m: driven, travel_straight_m: driven / (1.2 + 0.02 * ((8 * i) % 21)),
      };
    });
    await s.ctx.db('assignments').insert(rows);
  }
  const model = async () => (await s.api('GET', suggestionsPath(), { token: operator })).body.model;

  it('keeps the defaults (ETA_SPEED_KMH) with fewer than 20 trips, and old trips do not count', async () => {
    await insertTrips(19);
    await insertTrips(5, 120);
    forgetEtaModel(s.ctx);
    expect(await model()).toEqual({ road_factor: 1.3, speed_kmh: 25, calibrated: false, trips: 19 });
  });

  it('calibrates from 20 or more trips, read again once the cached model is a minute old', async () => {
    await s.ctx.db('assignments').where({ license_plate: 'TS09 EA 1001', status: 'cleared' }).whereNull('ambulance_id').delete();
    const t0 = Date.now();
    forgetEtaModel(s.ctx);
    expect(await etaModel(s.ctx, t0)).toMatchObject({ calibrated: false, trips: 0 });
    await insertTrips(21);
    // The node's model was read at t0: kept for a minute, then read again.
    expect(await etaModel(s.ctx, t0 + MODEL_CACHE_MS - 1)).toMatchObject({ calibrated: false, trips: 0 });
    expect(await etaModel(s.ctx, t0 + MODEL_CACHE_MS)).toEqual({ road_factor: 1.4, speed_kmh: 35, calibrated: true, trips: 21 });
    forgetEtaModel(s.ctx);
    expect(await model()).toEqual({ road_factor: 1.4, speed_kmh: 35, calibrated: true, trips: 21 });
    await placeFleet(s, { 1: { km: 1 } });
    const [first] = (await s.api('GET', suggestionsPath(), { token: operator })).body.suggestions;
    expect(first.eta_s).toBe(Math.round((distanceMeters(north(1), TARGET) * 1.4) / (35 / 3.6)));
  });
});

describe('trip distances recorded at on scene', () => {
  const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', LINK_LIMIT_PER_MIN: '100000' } });
  let operator: string;
  beforeAll(async () => { operator = await s.signIn('operator'); });

  const press = async (ambulanceId: number, status: string) =>
    expectStatus(await s.api('POST', `/api/ambulances/${ambulanceId}/unit-status`, { token: operator, body: { status } }), 200, status);
  const post = async (ambulanceId: number, p: { latitude: number; longitude: number }) =>
    expectStatus(await s.api('POST', `/api/ambulances/${ambulanceId}/position`, { token: operator, body: p }), 200, 'position');
  const assignmentOf = (caseId: string) => s.ctx.db('assignments').where({ case_id: caseId }).orderBy('id', 'desc').first();
  const intake = { ...north(0), address: 'Charminar', source: 'coordinates' };
  const path = [north(3), north(2), { latitude: north(1).latitude, longitude: TARGET.longitude + 0.005 }];
  const along = distanceMeters(path[0], path[1]) + distanceMeters(path[1], path[2]);

  it('records the metres along the fixes and the straight line from the first fix to the case\'s location', async () => {
    await placeFleet(s, { 1: { km: 4 } });
    const caseId = await dispatchCase(s, operator, 1, { intake_location: intake });
    await press(1, 'en_route');
    for (const p of path) await post(1, p);
    await press(1, 'on_scene');
    const a = await assignmentOf(caseId);
    expect(Number(a.travel_distance_m)).toBeCloseTo(along, 0);
    expect(Number(a.travel_straight_m)).toBeCloseTo(distanceMeters(path[0], TARGET), 0);
    // The fix from before en route (the placement) is not part of the trip.
    expect(Number(a.travel_distance_m)).toBeLessThan(along + 1);
  });

  it('measures to the last fix when the case has no location', async () => {
    await placeFleet(s, { 2: { km: 4 } });
    const caseId = await dispatchCase(s, operator, 2);
    await press(2, 'en_route');
    for (const p of path) await post(2, p);
    await press(2, 'on_scene');
    const a = await assignmentOf(caseId);
    expect(Number(a.travel_distance_m)).toBeCloseTo(along, 0);
    expect(Number(a.travel_straight_m)).toBeCloseTo(distanceMeters(path[0], path[2]), 0);
  });

  it('leaves both null with a single fix, or when the crew never pressed en route', async () => {
    await placeFleet(s, { 3: { km: 4 }, 4: { km: 4 } });
    const oneFix = await dispatchCase(s, operator, 3, { intake_location: intake });
    await press(3, 'en_route');
    await post(3, path[0]);
    await press(3, 'on_scene');
    expect(await assignmentOf(oneFix)).toMatchObject({ on_scene_at: expect.any(String), travel_distance_m: null, travel_straight_m: null });

    const skipped = await dispatchCase(s, operator, 4, { intake_location: intake });
    for (const p of path) await post(4, p);
    await press(4, 'on_scene');
    expect(await assignmentOf(skipped)).toMatchObject({ en_route_at: null, travel_distance_m: null, travel_straight_m: null });
  });

  it('records nothing on a step past on scene that skipped it', async () => {
    await placeFleet(s, { 5: { km: 4 } });
    const caseId = await dispatchCase(s, operator, 5, { intake_location: intake });
    await press(5, 'en_route');
    for (const p of path) await post(5, p);
    await press(5, 'transporting');
    expect(await assignmentOf(caseId)).toMatchObject({ on_scene_at: null, travel_distance_m: null });
    expectError(await s.api('POST', '/api/ambulances/5/unit-status', { token: operator, body: { status: 'on_scene' } }), 409, 'Ambulance TS09 EA 1005 is transporting; it cannot go back to on scene');
  });
});
