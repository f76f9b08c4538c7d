// The simulator as a fleet of GPS apps: the requests Traccar Client (OsmAnd protocol) and
// OwnTracks (HTTP mode) would send for a fix, in their own units.
import { KMH_MPS, KNOT_MPS } from '../../realtime-server/contract/deviceSchemas';

export const PROTOCOLS = ['staff', 'osmand', 'owntracks'] as const;
export type SimProtocol = (typeof PROTOCOLS)[number];

export interface DeviceFix {
  latitude: number;
  longitude: number;
  heading: number;
  speedMps: number;
  /** Epoch milliseconds of the fix. */
  at: number;
  /** Percent. */
  battery: number;
}

export interface DeviceRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export const mpsToKnots = (mps: number) => mps / KNOT_MPS;
export const mpsToKmh = (mps: number) => mps / KMH_MPS;

/** OsmAnd as a GET query, speed in knots; the time in epoch milliseconds (the protocol takes seconds too). */
export function osmandRequest(base: string, deviceId: string, fix: DeviceFix): DeviceRequest {
  const q = new URLSearchParams({
    id: deviceId,
    lat: fix.latitude.toFixed(7),
    lon: fix.longitude.toFixed(7),
    timestamp: String(fix.at),
    speed: mpsToKnots(fix.speedMps).toFixed(2),
    bearing: String(Math.round(fix.heading) % 360),
    accuracy: '8',
    batt: String(Math.round(fix.battery)),
  });
  return { method: 'GET', url: `${base}/api/devices/osmand?${q.toString()}`, headers: {} };
}

/**
 * OwnTracks' location message with HTTP Basic (the plate as username, the device id as
 * password); vel in whole km/h and tst in whole seconds, as the app sends them.
 */
export function owntracksRequest(base: string, deviceId: string, plate: string, fix: DeviceFix): DeviceRequest {
  return {
    method: 'POST',
    url: `${base}/api/devices/owntracks`,
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${plate}:${deviceId}`).toString('base64')}` },
    body: JSON.stringify({
      _type: 'location',
      lat: Number(fix.latitude.toFixed(7)),
      lon: Number(fix.longitude.toFixed(7)),
      tst: Math.floor(fix.at / 1000),
      acc: 8,
      vel: Math.round(mpsToKmh(fix.speedMps)),
      cog: Math.round(fix.heading) % 360,
      batt: Math.round(fix.battery),
      tid: plate.replace(/[^A-Za-z0-9]/g, '').slice(-2),
    }),
  };
}

/** A phone's battery: from `startPct`, one percent every 3 minutes, never below 5 %. */
export const batteryAt = (startPct: number, elapsedMs: number) => Math.max(5, startPct - elapsedMs / 180_000);
