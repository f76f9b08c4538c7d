import { type LatLon, distanceMeters } from '../../realtime-server/contract/geo';

const M_PER_DEG_LAT = 111_195;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `meters` away from `from` on compass `bearing` (degrees, 0 = north). Flat-earth: fine for city steps. */
export function moveBy(from: LatLon, bearing: number, meters: number): LatLon {
  const dLat = (meters * Math.cos(rad(bearing))) / M_PER_DEG_LAT;
  const dLon = (meters * Math.sin(rad(bearing))) / (M_PER_DEG_LAT * Math.cos(rad(from.latitude)));
  return { latitude: from.latitude + dLat, longitude: from.longitude + dLon };
}

/** Compass bearing from a to b, degrees in [0, 360). */
export function bearingTo(a: LatLon, b: LatLon): number {
  const y = Math.sin(rad(b.longitude - a.longitude)) * Math.cos(rad(b.latitude));
  const x = Math.cos(rad(a.latitude)) * Math.sin(rad(b.latitude)) - Math.sin(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.cos(rad(b.longitude - a.longitude));
  return (deg(Math.atan2(y, x)) + 360) % 360;
}

export interface Vehicle { position: LatLon; heading: number }
export interface StepOptions {
  /** Seconds since the last step. */
  dt: number;
  /** Cruising speed in km/h. */
  speedKmh: number;
  /** Where a busy ambulance drives to (its case's patient), if known. */
  target?: LatLon | null;
  /** Free ambulances wander within this circle. */
  centre: LatLon;
  radiusM: number;
  /** A number in [0, 1) (Math.random in use, fixed in tests). */
  random: () => number;
}

/** Within this distance of its target a busy ambulance has arrived and waits. */
export const ARRIVED_M = 30;

/**
 * One step of plausible city driving: a busy ambulance heads straight for its target and
 * stops there; a free one wanders with gentle turns and steers back inside its circle.
 * Answers the new state and the speed actually driven (m/s).
 */
export function step(v: Vehicle, o: StepOptions): Vehicle & { speedMps: number } {
  const cruise = (o.speedKmh * 1000) / 3600;
  if (o.target) {
    const left = distanceMeters(v.position, o.target);
    if (left <= ARRIVED_M) return { ...v, speedMps: 0 };
    const heading = bearingTo(v.position, o.target);
    const meters = Math.min(left, cruise * o.dt);
    return { position: meters === left ? o.target : moveBy(v.position, heading, meters), heading, speedMps: meters / o.dt };
  }
  let heading = (v.heading + (o.random() - 0.5) * 40 + 360) % 360;
  if (distanceMeters(v.position, o.centre) > o.radiusM) heading = bearingTo(v.position, o.centre);
  // Free ambulances roll a little slower than the cruising speed of a call.
  const speed = cruise * (0.6 + o.random() * 0.2);
  return { position: moveBy(v.position, heading, speed * o.dt), heading, speedMps: speed };
}
