import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { DEFAULT_CLOCK_STOPS, DEFAULT_PRIORITY_NEEDS, DEFAULT_STALE_AFTER_S, arrivalSeconds, distanceMeters } from '../contract';
import {
  type Candidate, type Trip, DEFAULT_ROAD_FACTOR, MIN_CALIBRATION_TRIPS, calibrate, median, rankSuggestions, tripTravel,
} from './dispatchSuggestions';

/**
 * The arrival estimate's pure parts: the ranking (by ETA, stale after fresh, per-source
 * thresholds), the calibration from a fixture of trips whose medians are known, and the
 * distances an arrival records.
 */
const NOW = Date.parse('2026-11-25T10:00:00.000Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();
const TARGET = { latitude: 17.385, longitude: 78.4867 };
/** About `km` kilometres north of the target (a degree of latitude is about 111.2 km). */
const north = (km: number) => ({ latitude: TARGET.latitude + km / 111.195, longitude: TARGET.longitude });
const unit = (id: number, km: number, ageS: number, source: string | null = 'staff'): Candidate =>
  ({ id, license_plate: `TS09 EA 100${id}`, capability: 'als', ...north(km), position_at: ago(ageS), position_source: source });
const DEFAULTS = { road_factor: DEFAULT_ROAD_FACTOR, speed_kmh: 30, calibrated: false, trips: 0 };
const rank = (c: Candidate[], staleAfterS = DEFAULT_STALE_AFTER_S, model = DEFAULTS) => rankSuggestions(c, TARGET, model, { now: NOW, staleAfterS });

describe('rankSuggestions', () => {
  it('ranks by estimated arrival: straight line × road factor at the speed', () => {
    const out = rank([unit(1, 3, 10), unit(2, 1, 10), unit(3, 2, 10)]);
    expect(out.map((s) => s.ambulance_id)).toEqual([2, 3, 1]);
    const d = distanceMeters(north(1), TARGET);
    expect(out[0]).toEqual({
      ambulance_id: 2, license_plate: 'TS09 EA 1002', distance_m: Math.round(d),
      eta_s: Math.round((d * 1.3) / (30 / 3.6)), position_age_s: 10, stale: false, capability: 'als', can_transport: true, meets_need: true,
    });
    // 1 km × 1.3 at 30 km/h is 156 s.
    expect(out[0].eta_s).toBe(156);
  });

  it('puts a stale position after every fresh one, even when it is nearer', () => {
    const out = rank([unit(1, 5, 10), unit(2, 0.3, 121), unit(3, 2, 10)]);
    expect(out.map((s) => [s.ambulance_id, s.stale])).toEqual([[3, false], [1, false], [2, true]]);
    expect(out[2].position_age_s).toBe(121);
  });

  it('ranks stale positions among themselves by arrival too', () => {
    const out = rank([unit(1, 4, 500), unit(2, 2, 500), unit(3, 9, 5)]);
    expect(out.map((s) => s.ambulance_id)).toEqual([3, 2, 1]);
  });

  it('judges staleness by the threshold of each fix source', () => {
    const out = rank([unit(1, 1, 90, 'driver'), unit(2, 2, 90, 'osmand'), unit(3, 3, 90, 'owntracks'), unit(4, 4, 90, null)]);
    // A browser's fix is stale after 60 s; an app's (and an unknown source's) after 120 s.
    expect(out.map((s) => [s.ambulance_id, s.stale])).toEqual([[2, false], [3, false], [4, false], [1, true]]);
  });

  it('honours STALE_AFTER: osmand=600s keeps a 5-minute-old tracker fix fresh, the same age from OwnTracks is stale', () => {
    const { staleAfterS } = loadConfig({ STALE_AFTER: 'osmand=600s' });
    const out = rank([unit(1, 1, 300, 'owntracks'), unit(2, 5, 300, 'osmand')], staleAfterS);
    expect(out.map((s) => [s.ambulance_id, s.stale])).toEqual([[2, false], [1, true]]);
    // With the defaults both are stale, and the nearer comes first.
    expect(rank([unit(1, 1, 300, 'owntracks'), unit(2, 5, 300, 'osmand')]).map((s) => [s.ambulance_id, s.stale])).toEqual([[1, true], [2, true]]);
  });

  it('estimates with a calibrated model when given one', () => {
    const model = { road_factor: 1.5, speed_kmh: 36, calibrated: true, trips: 40 };
    const [s] = rank([unit(1, 1, 10)], DEFAULT_STALE_AFTER_S, model);
    expect(s.eta_s).toBe(Math.round((distanceMeters(north(1), TARGET) * 1.5) / 10));
    expect(arrivalSeconds(1000, model)).toBe(150);
  });

  it('counts a fix dated ahead of now as just taken, and breaks ties by id', () => {
    const out = rank([unit(2, 1, -30), unit(1, 1, 10)]);
    expect(out.map((s) => [s.ambulance_id, s.position_age_s])).toEqual([[1, 10], [2, 0]]);
  });

  it('answers nothing for no candidates', () => {
    expect(rank([])).toEqual([]);
  });
});

/**
 * 21 trips of 6 minutes each: trip i drives at (25 + i) km/h, so (25 + i) × 100 m, over a
 * straight line that makes its road factor 1.2 + 0.02 × ((8i) mod 21) (the factors shuffled
 * against the speeds). Medians: 35 km/h and 1.4.
 */
function fixtureTrips(n = 21): Trip[] {
  return Array.from({ length: n }, (_, i) => {
    const driven = (25 + i) * 100;
    const factor = 1.2 + 0.02 * ((8 * i) % 21);
    const start = Date.parse('2026-11-01T08:00:00.000Z') + i * 3_600_000;
    return {
      en_route_at: new Date(start).toISOString(), on_scene_at: new Date(start + 360_000).toISOString(),
      travel_distance_m: driven, travel_straight_m: driven / factor,
    };
  });
}

describe('calibrate', () => {
  it(`takes the median road factor and speed of at least ${MIN_CALIBRATION_TRIPS} trips`, () => {
    expect(calibrate(fixtureTrips(), 30)).toEqual({ road_factor: 1.4, speed_kmh: 35, calibrated: true, trips: 21 });
  });

  it('leaves out trips without both distances or shorter than a minute', () => {
    const trips = fixtureTrips();
    const odd: Trip[] = [
      { ...trips[0], travel_distance_m: null as unknown as number },
      { ...trips[0], travel_straight_m: null as unknown as number },
      { ...trips[0], travel_straight_m: 0 },
      { ...trips[0], on_scene_at: new Date(Date.parse(trips[0].en_route_at) + 59_000).toISOString(), travel_distance_m: 99_999 },
    ];
    expect(calibrate([...trips, ...odd], 30)).toEqual({ road_factor: 1.4, speed_kmh: 35, calibrated: true, trips: 21 });
  });

  it(`keeps the defaults, uncalibrated, with fewer than ${MIN_CALIBRATION_TRIPS} usable trips`, () => {
    expect(calibrate(fixtureTrips(19), 30)).toEqual({ road_factor: 1.3, speed_kmh: 30, calibrated: false, trips: 19 });
    expect(calibrate([], 42)).toEqual({ road_factor: 1.3, speed_kmh: 42, calibrated: false, trips: 0 });
  });

  it('clamps the factor to 1–3 and the speed to 10–90 km/h', () => {
    const fast = fixtureTrips(20).map((t) => ({ ...t, travel_distance_m: 20_000, travel_straight_m: 4_000 }));
    expect(calibrate(fast, 30)).toMatchObject({ road_factor: 3, speed_kmh: 90, calibrated: true, trips: 20 });
    const slow = fixtureTrips(20).map((t) => ({ ...t, travel_distance_m: 500, travel_straight_m: 800 }));
    expect(calibrate(slow, 30)).toMatchObject({ road_factor: 1, speed_kmh: 10, calibrated: true });
  });

  it('median: the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('tripTravel', () => {
  const path = [north(3), north(2), { latitude: north(2).latitude, longitude: TARGET.longitude + 0.01 }, north(0.1)];
  const along = distanceMeters(path[0], path[1]) + distanceMeters(path[1], path[2]) + distanceMeters(path[2], path[3]);

  it('sums the segments driven and measures the straight line from the first fix to the scene', () => {
    const t = tripTravel(path, TARGET)!;
    expect(t.travel_distance_m).toBeCloseTo(along, 0);
    expect(t.travel_straight_m).toBeCloseTo(distanceMeters(path[0], TARGET), 0);
    expect(t.travel_straight_m).toBeGreaterThan(3000 - 5);
  });

  it('measures to the last fix without a known scene', () => {
    expect(tripTravel(path, null)!.travel_straight_m).toBeCloseTo(distanceMeters(path[0], path[3]), 0);
  });

  it('says nothing from fewer than two fixes', () => {
    expect(tripTravel([north(1)], TARGET)).toBeNull();
    expect(tripTravel([], TARGET)).toBeNull();
  });
});

describe('PRIORITY_NEEDS and PRIORITY_CLOCK_STOP', () => {
  it('default to the NHS practice and read priority=value lists in any order', () => {
    const c = loadConfig({});
    expect(c.priorityNeeds).toEqual(DEFAULT_PRIORITY_NEEDS);
    expect(c.clockStops).toEqual(DEFAULT_CLOCK_STOPS);
    expect(loadConfig({ PRIORITY_NEEDS: '4=bls, 3=als,2=cct,1=cct' }).priorityNeeds).toEqual({ 1: 'cct', 2: 'cct', 3: 'als', 4: 'bls' });
  });

  it('refuse a value outside the list or a missing priority, naming the variable', () => {
    expect(() => loadConfig({ PRIORITY_NEEDS: '1=responder,2=als,3=bls,4=bls' })).toThrow('Invalid environment: PRIORITY_NEEDS: "1=responder" is not priority=value with a value from bls, als, cct');
    expect(() => loadConfig({ PRIORITY_CLOCK_STOP: '1=first,2=transport' })).toThrow('Invalid environment: PRIORITY_CLOCK_STOP: give a value for every priority (missing 3, 4)');
  });
});
