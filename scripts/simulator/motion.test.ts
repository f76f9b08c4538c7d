import { describe, expect, it } from 'vitest';
import { distanceMeters } from '../../realtime-server/contract/geo';
import { ARRIVED_M, type Vehicle, bearingTo, moveBy, step } from './motion';

const centre = { latitude: 17.385, longitude: 78.4867 };
const fixed = (v: number) => () => v;

describe('simulator motion', () => {
  it('moves the right distance on the right bearing', () => {
    const east = moveBy(centre, 90, 1000);
    expect(distanceMeters(centre, east)).toBeCloseTo(1000, -1);
    expect(bearingTo(centre, east)).toBeCloseTo(90, 0);
    expect(bearingTo(centre, moveBy(centre, 0, 500))).toBeCloseTo(0, 0);
  });

  it('drives a busy ambulance towards its target at the cruising speed, then waits there', () => {
    const target = moveBy(centre, 45, 2000);
    let v = { position: centre, heading: 0 };
    const s1 = step(v, { dt: 10, speedKmh: 36, target, centre, radiusM: 10_000, random: fixed(0.5) });
    expect(distanceMeters(centre, s1.position)).toBeCloseTo(100, -1); // 36 km/h = 10 m/s for 10 s
    expect(s1.speedMps).toBeCloseTo(10, 5);
    expect(distanceMeters(s1.position, target)).toBeCloseTo(1900, -1);
    for (let i = 0; i < 40; i++) v = step(v, { dt: 10, speedKmh: 36, target, centre, radiusM: 10_000, random: fixed(0.5) });
    expect(distanceMeters(v.position, target)).toBeLessThanOrEqual(ARRIVED_M);
    expect(step(v, { dt: 10, speedKmh: 36, target, centre, radiusM: 10_000, random: fixed(0.5) }).speedMps).toBe(0);
  });

  it('keeps a free ambulance inside its circle at a plausible speed', () => {
    let v: Vehicle & { speedMps?: number } = { position: centre, heading: 0 };
    let random = 0.1;
    for (let i = 0; i < 2000; i++) {
      random = (random * 9301 + 49297) % 233280 / 233280;
      const r = random;
      v = step(v, { dt: 2, speedKmh: 40, centre, radiusM: 3000, random: () => r });
      expect(v.speedMps).toBeGreaterThan(0);
      expect(v.speedMps).toBeLessThan(40 / 3.6);
      expect(distanceMeters(v.position, centre)).toBeLessThan(3000 + 40);
    }
  });
});
