import { describe, expect, it } from 'vitest';
import { decodeWkb, distanceMeters, formatDistance, isStale, pointWkb } from './geo';

describe('distance', () => {
  it('measures great-circle distances', () => {
    // Charminar to Secunderabad station, about 9 km.
    expect(distanceMeters({ latitude: 17.3616, longitude: 78.4747 }, { latitude: 17.4337, longitude: 78.5016 })).toBeCloseTo(8.5e3, -3);
    // One degree of latitude is about 111.2 km.
    expect(distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(111_195, -1);
    expect(distanceMeters({ latitude: 17.4, longitude: 78.5 }, { latitude: 17.4, longitude: 78.5 })).toBe(0);
  });
  it('formats distances and knows a stale fix', () => {
    expect(formatDistance(850.4)).toBe('850 m');
    expect(formatDistance(3240)).toBe('3.2 km');
    const now = Date.parse('2026-01-01T00:10:00Z');
    expect(isStale('2026-01-01T00:07:59Z', now)).toBe(true);
    expect(isStale('2026-01-01T00:08:30Z', now)).toBe(false);
    expect(isStale(null, now)).toBe(true);
  });
});

describe('WKB', () => {
  it('decodes the server\'s EWKB point, longitude first', () => {
    expect(decodeWkb(pointWkb(17.385, 78.4867))).toEqual({ latitude: 17.385, longitude: 78.4867 });
  });
  it('decodes plain WKB without SRID', () => {
    const ewkb = pointWkb(-33.5, 151.25);
    expect(decodeWkb('0101000000' + ewkb.slice(18))).toEqual({ latitude: -33.5, longitude: 151.25 });
  });
  it('refuses unknown prefixes, short input and NaN', () => {
    expect(decodeWkb('0102000000' + '00'.repeat(16))).toBeNull();
    expect(decodeWkb('0101000000' + '00'.repeat(15))).toBeNull();
    expect(decodeWkb('0101000000' + '000000000000F87F' + '0000000000000000')).toBeNull();
    expect(decodeWkb(null)).toBeNull();
  });
});
