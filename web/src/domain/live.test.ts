import { describe, expect, it } from 'vitest';
import { type AmbulanceDto, type AssignmentStatus, type CaseDto, TRAIL_MAX_POINTS, arrivalMinutes, arrivalSeconds } from '../api/contract';
import {
  accuracyText, ambulanceFix, approach, assignedAmbulance, caseApproach, caseFix, distanceAwayText, fixTimeText, pointOf,
} from './liveText';
import { availableByDistance, plateWithDistance } from './nearest';
import { extendTrail, trailLine } from './trail';
import { ambulanceDto, caseDto } from '../testing/dtos';

const kase = caseDto;
const amb = (id: number, over: Partial<AmbulanceDto> & { at?: [number, number] } = {}): AmbulanceDto => {
  const { at, ...rest } = over;
  return ambulanceDto({
    id, license_plate: `TS09 EA 100${id}`,
    location: at ? { placeName: null, latitude: at[0], longitude: at[1], updated_at: '2026-01-01T10:00:00.000Z', source: 'driver', battery: null } : null,
    ...rest,
  });
};

const NOW = Date.parse('2026-01-01T10:05:00.000Z');
const PATIENT = { latitude: 17.385, longitude: 78.4867 };
// About 1.11 km north of the patient per 0.01 degree of latitude.
const north = (deg: number): [number, number] => [17.385 + deg, 78.4867];

describe('points, accuracy and fix times', () => {
  it('takes a point only with two finite coordinates', () => {
    expect(pointOf({ latitude: 1, longitude: 2 })).toEqual({ latitude: 1, longitude: 2 });
    expect(pointOf({ latitude: null, longitude: 2 })).toBeNull();
    expect(pointOf({ latitude: Number.NaN, longitude: 2 })).toBeNull();
    expect(pointOf(null)).toBeNull();
  });

  it('words accuracy as ±N m, or km from a kilometre', () => {
    expect(accuracyText(12.4)).toBe('±12 m');
    expect(accuracyText(1500)).toBe('±1.5 km');
    expect(accuracyText(null)).toBeNull();
    expect(accuracyText(-1)).toBeNull();
  });

  it('gives a fix time with seconds, the date too when it is not today', () => {
    const today = fixTimeText('2026-01-01T10:04:30.000Z', NOW, 'en-GB');
    expect(today).toMatch(/\d\d:\d\d:\d\d/);
    expect(today).not.toMatch(/Jan/);
    expect(fixTimeText('2025-12-20T10:04:30.000Z', NOW, 'en-GB')).toMatch(/Dec/);
    expect(fixTimeText(null, NOW)).toBe('Not Available');
    expect(fixTimeText('garbage', NOW)).toBe('Not Available');
  });

  it("marks a case's fix stale after two minutes, with its accuracy", () => {
    const fix = (updated_at: string) => kase({ latitude: 17.4, longitude: 78.5, patient_location: { latitude: 17.4, longitude: 78.5, accuracy: 20, updated_at } });
    expect(caseFix(fix('2026-01-01T10:04:00.000Z'), NOW)).toMatchObject({ stale: false, accuracy: '±20 m' });
    expect(caseFix(fix('2026-01-01T10:02:59.000Z'), NOW)).toMatchObject({ stale: true });
    expect(caseFix(kase({ latitude: null, longitude: null }), NOW)).toBeNull();
  });

  it('has no patient fix for a call known only by its intake address', () => {
    const intake = { latitude: 17.4, longitude: 78.5, address: '12 High Street', source: 'address' as const };
    expect(caseFix(kase({ latitude: 17.4, longitude: 78.5, location_source: 'intake', intake_location: intake }), NOW)).toBeNull();
  });

  it("marks an ambulance stale after its own source's threshold", () => {
    const at = (source: 'driver' | 'osmand', updated_at: string) => {
      const a = amb(1, { at: north(0) });
      a.location = { ...a.location!, source, updated_at };
      return a;
    };
    const ninetySecondsOld = '2026-01-01T10:03:30.000Z';
    expect(ambulanceFix(at('driver', ninetySecondsOld), NOW)).toMatchObject({ stale: true }); // a browser: 60 s
    expect(ambulanceFix(at('osmand', ninetySecondsOld), NOW)).toMatchObject({ stale: false }); // an app: 120 s
    const tracker = { driver: 60, staff: 120, osmand: 600, owntracks: 120 };
    const fiveMinutesOld = '2026-01-01T10:00:00.000Z';
    expect(ambulanceFix(at('osmand', fiveMinutesOld), NOW)).toMatchObject({ stale: true });
    expect(ambulanceFix(at('osmand', fiveMinutesOld), NOW, tracker)).toMatchObject({ stale: false });
  });

  it('marks an ambulance stale when its position is older than its threshold or of unknown time', () => {
    const fresh = amb(1, { at: north(0) });
    fresh.location!.updated_at = '2026-01-01T10:04:00.000Z';
    expect(ambulanceFix(fresh, NOW)).toMatchObject({ stale: false, accuracy: null });
    expect(ambulanceFix(amb(2, { at: north(0) }), NOW)).toMatchObject({ stale: true }); // 10:00, five minutes old
    const unknown = amb(3, { at: north(0) });
    unknown.location!.updated_at = null;
    expect(ambulanceFix(unknown, NOW)).toMatchObject({ stale: true, time: 'Not Available' });
    expect(ambulanceFix(amb(4), NOW)).toBeNull();
  });
});

const MODEL = { road_factor: 1.3, speed_kmh: 30 };
const onTheWay = (ambulance_id: number, status: AssignmentStatus = 'en_route') =>
  ({ ambulance_id, assignment: { id: 1, case_id: 'c1', ambulance_id, license_plate: `TS09 EA 100${ambulance_id}`, status } as CaseDto['assignment'] });

describe('distance and ETA', () => {
  it('words the straight-line distance and the ETA with the model (road factor and speed)', () => {
    const a = approach({ latitude: north(0.01)[0], longitude: north(0.01)[1] }, PATIENT, MODEL, 'en_route')!;
    expect(a.meters).toBeGreaterThan(1100);
    expect(a.meters).toBeLessThan(1125);
    expect(a.distance).toBe('1.1 km');
    expect(a.minutes).toBe(3); // 1.11 km × 1.3 at 30 km/h = 2.9 min, rounded up
    expect(a.eta).toBe('Arriving in about 3 min');
    // The minutes of the server's eta_s for the same distance (the alerts' and the form's), whoever computes them.
    expect(a.minutes).toBe(arrivalMinutes(arrivalSeconds(a.meters, MODEL)));
    expect(distanceAwayText(a)).toBe('1.1 km away');
    expect(distanceAwayText(a, 'TS09 EA 1002')).toBe('TS09 EA 1002 is 1.1 km away');
  });

  it('has a distance but no ETA while the model is unknown, and nothing without both points', () => {
    expect(approach(PATIENT, { latitude: 17.386, longitude: 78.4867 }, undefined, 'dispatched')).toMatchObject({ distance: '111 m', minutes: null, eta: null });
    expect(approach(null, PATIENT, MODEL, 'en_route')).toBeNull();
    expect(approach(PATIENT, { latitude: null, longitude: 1 }, MODEL, 'en_route')).toBeNull();
  });

  it('has neither once the unit is on scene or later, or not coming: no "Arriving in about 1 min" on scene', () => {
    const from = { latitude: north(0.01)[0], longitude: north(0.01)[1] };
    for (const step of ['on_scene', 'transporting', 'at_hospital', 'cleared', 'cancelled'] as const) {
      expect({ step, approach: approach(from, PATIENT, MODEL, step) }).toEqual({ step, approach: null });
      expect({ step, live: caseApproach(kase({ ...PATIENT, ...onTheWay(1, step) }), [amb(1, { at: north(0.01) })], MODEL) }).toEqual({ step, live: null });
    }
    expect(approach(from, PATIENT, MODEL, null)).toBeNull();
  });

  it('finds the assigned ambulance by id, else by plate', () => {
    const list = [amb(1), amb(2)];
    expect(assignedAmbulance({ ambulance_id: 2, license_plate: null }, list)?.id).toBe(2);
    expect(assignedAmbulance({ ambulance_id: null, license_plate: 'TS09 EA 1001' }, list)?.id).toBe(1);
    expect(assignedAmbulance({ ambulance_id: 9, license_plate: null }, list)).toBeUndefined();
  });

  it("gives an active case its ambulance's approach, and nothing for a closed case or a missing position", () => {
    const list = [amb(1, { at: north(0.02), status: 'busy' }), amb(2)];
    const located = { ...PATIENT, ...onTheWay(1) };
    const live = caseApproach(kase(located), list, MODEL)!;
    expect(live.ambulance.id).toBe(1);
    expect(live.distance).toBe('2.2 km');
    expect(live.eta).toBe('Arriving in about 6 min'); // 2.22 km × 1.3 at 30 km/h = 5.8 min
    expect(caseApproach(kase({ ...located, status: 'closed' }), list, MODEL)).toBeNull();
    expect(caseApproach(kase({ ...PATIENT, ...onTheWay(2) }), list, MODEL)).toBeNull(); // no ambulance position
    expect(caseApproach(kase(onTheWay(1)), list, MODEL)).toBeNull(); // no patient location
  });

  it('shrinks the ETA as the ambulance comes closer', () => {
    const far = caseApproach(kase({ ...PATIENT, ...onTheWay(1) }), [amb(1, { at: north(0.05) })], MODEL)!;
    const near = caseApproach(kase({ ...PATIENT, ...onTheWay(1) }), [amb(1, { at: north(0.005) })], MODEL)!;
    expect(near.minutes!).toBeLessThan(far.minutes!);
  });
});

describe('available ambulances by distance', () => {
  const fleet = [
    amb(1, { at: north(0.05) }),
    amb(2, { at: north(0.01) }),
    amb(3, { at: north(0.02), status: 'busy' }),
    amb(4),
    amb(5, { at: north(0.03), status: 'maintenance' }),
    amb(6, { at: north(0.01) }),
  ];

  it('lists only available ones, nearest first, those without a position last', () => {
    const ranked = availableByDistance(fleet, PATIENT);
    expect(ranked.map((r) => r.ambulance.id)).toEqual([2, 6, 1, 4]);
    expect(ranked[0].meters).toBeCloseTo(1112, -1);
    expect(ranked[3].meters).toBeNull();
  });

  it('keeps the ambulance a case holds, whatever its status, in its place by distance', () => {
    expect(availableByDistance(fleet, PATIENT, { keepId: 3 }).map((r) => r.ambulance.id)).toEqual([2, 6, 3, 1, 4]);
  });

  it('keeps the given order, without distances, when the location is unknown', () => {
    const ranked = availableByDistance(fleet, null);
    expect(ranked.map((r) => r.ambulance.id)).toEqual([1, 2, 4, 6]);
    expect(ranked.every((r) => r.meters === null)).toBe(true);
  });

  it('labels a plate with its distance', () => {
    expect(plateWithDistance('TS09 EA 1003', 1234)).toBe('TS09 EA 1003 — 1.2 km');
    expect(plateWithDistance('TS09 EA 1003', 850)).toBe('TS09 EA 1003 — 850 m');
    expect(plateWithDistance('TS09 EA 1003', null)).toBe('TS09 EA 1003');
  });
});

describe('trail', () => {
  const at = (min: number) => new Date(NOW + min * 60_000).toISOString();
  const base = [{ latitude: 1, longitude: 1, recorded_at: at(-2) }, { latitude: 1.001, longitude: 1, recorded_at: at(-1) }];

  it('appends a newer position and never an older or repeated one', () => {
    expect(extendTrail(base, { latitude: 1.002, longitude: 1, recorded_at: at(0) })).toHaveLength(3);
    expect(extendTrail(base, { latitude: 5, longitude: 5, recorded_at: at(-1) })).toBe(base);
    expect(extendTrail(base, { latitude: 5, longitude: 5, recorded_at: at(-3) })).toBe(base);
    expect(extendTrail(base, { latitude: 5, longitude: 5, recorded_at: null })).toBe(base);
  });

  it('leaves a trail that is still loading alone', () => {
    expect(extendTrail(undefined, { latitude: 1, longitude: 1, recorded_at: at(0) })).toBeUndefined();
  });

  it('keeps the last 30 minutes and at most the point limit', () => {
    const old = [{ latitude: 0, longitude: 0, recorded_at: at(-40) }, ...base];
    expect(extendTrail(old, { latitude: 1.002, longitude: 1, recorded_at: at(0) })!.map((p) => p.latitude)).toEqual([1, 1.001, 1.002]);
    const many = Array.from({ length: TRAIL_MAX_POINTS }, (_, i) => ({ latitude: i, longitude: 0, recorded_at: new Date(NOW - 60_000 + i).toISOString() }));
    const next = extendTrail(many, { latitude: 999, longitude: 0, recorded_at: at(0) })!;
    expect(next).toHaveLength(TRAIL_MAX_POINTS);
    expect(next.at(-1)!.latitude).toBe(999);
  });

  it('draws a line only from two distinct points', () => {
    expect(trailLine(base)).toEqual([[1, 1], [1.001, 1]]);
    expect(trailLine([base[0], { ...base[0], recorded_at: at(0) }])).toEqual([]);
    expect(trailLine(undefined)).toEqual([]);
  });
});
