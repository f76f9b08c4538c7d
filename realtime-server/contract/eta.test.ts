import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_STATUSES } from './callLife';
import { arrivalEstimate, arrivalMinutes, arrivalSeconds, arrivalText, awaitsArrival } from './eta';
import { distanceMeters } from './geo';

const model = { road_factor: 1.3, speed_kmh: 30 };
const unit = { latitude: 17.385, longitude: 78.4867 };
// About 3.4 km north of the unit: the example (the card said 7 min without the road factor, the alert 9).
const call = { latitude: 17.4156, longitude: 78.4867 };

describe('the one arrival estimate', () => {
  it('is the straight line times the road factor at the model speed, in whole seconds', () => {
    expect(arrivalSeconds(1000, { road_factor: 1.5, speed_kmh: 36 })).toBe(150);
    expect(arrivalSeconds(1000, { road_factor: 1, speed_kmh: 36 })).toBe(100);
    expect(arrivalSeconds(0, model)).toBe(0);
    expect(arrivalSeconds(1000, { road_factor: 1.3, speed_kmh: 0 })).toBeNaN();
    expect(arrivalSeconds(Number.NaN, model)).toBeNaN();
  });

  it('says whole minutes rounded up, at least one', () => {
    expect(arrivalMinutes(0)).toBe(1);
    expect(arrivalMinutes(60)).toBe(1);
    expect(arrivalMinutes(61)).toBe(2);
    expect(arrivalMinutes(530)).toBe(9);
    expect(arrivalMinutes(Number.NaN)).toBeNaN();
    expect(arrivalText(9)).toBe('Arriving in about 9 min');
  });

  it('counts the road factor: 3.4 km straight is about 9 min at 1.3 and 30 km/h, not 7', () => {
    const e = arrivalEstimate(unit, call, model, 'dispatched')!;
    expect(e.meters).toBeCloseTo(distanceMeters(unit, call));
    expect(e.meters).toBeGreaterThan(3350);
    expect(e.meters).toBeLessThan(3450);
    expect(e.minutes).toBe(9);
    // The same minutes as the server's eta_s for that distance, whoever computes it.
    expect(arrivalMinutes(arrivalSeconds(e.meters, model))).toBe(e.minutes);
  });

  it('gives no estimate once the unit is on scene or later, cancelled, or without a step', () => {
    for (const step of ASSIGNMENT_STATUSES) {
      const coming = step === 'dispatched' || step === 'en_route';
      expect({ step, awaits: awaitsArrival(step) }).toEqual({ step, awaits: coming });
      expect({ step, estimate: arrivalEstimate(unit, call, model, step) != null }).toEqual({ step, estimate: coming });
    }
    expect(awaitsArrival(null)).toBe(false);
    expect(arrivalEstimate(unit, call, model, undefined)).toBeNull();
  });

  it('gives none without both points or a model', () => {
    expect(arrivalEstimate(null, call, model, 'en_route')).toBeNull();
    expect(arrivalEstimate(unit, null, model, 'en_route')).toBeNull();
    expect(arrivalEstimate(unit, call, null, 'en_route')).toBeNull();
    expect(arrivalEstimate(unit, call, { road_factor: 1.3, speed_kmh: 0 }, 'en_route')).toBeNull();
  });
});
