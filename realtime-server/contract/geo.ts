/** Little-endian IEEE double as hex. */
function doubleHex(v: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v, true);
  let hex = '';
  for (let i = 0; i < 8; i++) hex += view.getUint8(i).toString(16).padStart(2, '0');
  return hex.toUpperCase();
}

/** Point geometry prefixes SPEC §3 recognises: with SRID 4326 (EWKB) and without (plain WKB), little-endian. */
const WITH_SRID = '0101000020E6100000';
const WITHOUT_SRID = '0101000000';

/** Hex EWKB of a point with SRID 4326, longitude first: the `wkb` of a case (SPEC §3). */
export const pointWkb = (latitude: number, longitude: number) =>
  `${WITH_SRID}${doubleHex(longitude)}${doubleHex(latitude)}`;

function readDoubleLE(hex: string): number {
  const bytes = new Uint8Array(8);
  for (let i = 0; i < 8; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return new DataView(bytes.buffer).getFloat64(0, true);
}

/**
 * The reader of the `wkb` field for API clients: a hex WKB point (longitude first, then
 * latitude), with or without SRID; null unless it is a point it recognises.
 */
export function decodeWkb(hex: string | null | undefined): LatLon | null {
  if (!hex) return null;
  const h = hex.trim().toUpperCase();
  const prefix = h.startsWith(WITH_SRID) ? WITH_SRID : h.startsWith(WITHOUT_SRID) ? WITHOUT_SRID : null;
  if (!prefix) return null;
  const coords = h.slice(prefix.length);
  if (coords.length < 32 || !/^[0-9A-F]+$/.test(coords.slice(0, 32))) return null;
  const longitude = readDoubleLE(coords.slice(0, 16));
  const latitude = readDoubleLE(coords.slice(16, 32));
  if (Number.isNaN(longitude) || Number.isNaN(latitude)) return null;
  return { latitude, longitude };
}

export interface LatLon { latitude: number; longitude: number }

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle (straight-line) distance in metres, haversine. */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "850 m" below a kilometre, "3.2 km" above. */
export function formatDistance(m: number): string {
  return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`;
}

/** A position or fix older than this is shown as stale. */
export const STALE_AFTER_MS = 2 * 60_000;
export const isStale = (iso: string | null | undefined, now = Date.now()) =>
  !iso || now - Date.parse(iso) > STALE_AFTER_MS;

/** The largest accuracy radius, in metres, a position may report. */
export const MAX_ACCURACY_M = 100_000;

/** Fastest plausible ambulance movement (about 324 km/h, well above any road speed). */
export const MAX_SPEED_MPS = 90;
