import { describe, expect, it } from 'vitest';
import { osmandParamsSchema, owntracksLocationSchema } from '../../realtime-server/contract/deviceSchemas';
import { batteryAt, mpsToKmh, mpsToKnots, osmandRequest, owntracksRequest } from './devices';

const fix = { latitude: 17.3850123, longitude: 78.4867456, heading: 361.4, speedMps: 10, at: 1_767_225_600_123, battery: 87.6 };
const base = 'http://127.0.0.1:3000';

describe('simulator device requests', () => {
  it('converts m/s to knots and km/h', () => {
    expect(mpsToKnots(10)).toBeCloseTo(19.438, 3);
    expect(mpsToKmh(10)).toBeCloseTo(36, 6);
    expect(mpsToKnots(0)).toBe(0);
  });

  it('sends OsmAnd as a GET query: knots, epoch milliseconds, bearing in 0–359, battery in percent', () => {
    const req = osmandRequest(base, 'abc123', fix);
    expect(req.method).toBe('GET');
    expect(req.body).toBeUndefined();
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:3000/api/devices/osmand');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id: 'abc123', lat: '17.3850123', lon: '78.4867456', timestamp: '1767225600123', speed: '19.44', bearing: '1', accuracy: '8', batt: '88',
    });
  });

  it('sends OwnTracks as a POST with Basic auth (plate, device id) and vel in km/h, tst in seconds', () => {
    const req = owntracksRequest(base, 'abc123', 'TS09 EA 1001', fix);
    expect(req).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:3000/api/devices/owntracks', headers: { 'content-type': 'application/json' } });
    expect(Buffer.from(req.headers.authorization.replace(/^Basic /, ''), 'base64').toString()).toBe('TS09 EA 1001:abc123');
    expect(JSON.parse(req.body!)).toEqual({ _type: 'location', lat: 17.3850123, lon: 78.4867456, tst: 1_767_225_600, acc: 8, vel: 36, cog: 1, batt: 88, tid: '01' });
  });

  it('builds requests the server reads back as the same fix', () => {
    const osmand = osmandParamsSchema.parse(Object.fromEntries(new URL(osmandRequest(base, 'x', fix).url).searchParams));
    expect(osmand).toMatchObject({ position: { latitude: 17.3850123, longitude: 78.4867456, heading: 1, battery: 88, timestamp: fix.at } });
    expect('position' in osmand && osmand.position.speed).toBeCloseTo(10, 2);
    const owntracks = owntracksLocationSchema.parse(JSON.parse(owntracksRequest(base, 'x', 'P', fix).body!));
    expect(owntracks).toMatchObject({ position: { latitude: 17.3850123, heading: 1, battery: 88, timestamp: 1_767_225_600_000 } });
    expect('position' in owntracks && owntracks.position.speed).toBeCloseTo(10, 6);
  });

  it('drains the battery one percent every 3 minutes, down to 5 %', () => {
    expect(batteryAt(90, 0)).toBe(90);
    expect(batteryAt(90, 180_000 * 10)).toBe(80);
    expect(batteryAt(10, 180_000 * 100)).toBe(5);
  });
});
