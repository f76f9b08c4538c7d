// What GPS apps and trackers send (DOMAIN.md §4), read into the driver page's PositionInput. Server-only (zod).
import { z } from 'zod';
import type { PositionInput } from './ambulances';

/** Metres per second in one knot (the OsmAnd query form's speed unit). */
export const KNOT_MPS = 0.514444;
/** Metres per second in one km/h (OwnTracks' `vel`). */
export const KMH_MPS = 1 / 3.6;

/**
 * A device report: the position for the writer, or why it is acknowledged without being
 * stored (a fix the device itself marks invalid, or the 0,0 "no fix" many trackers send).
 */
export type DeviceReport = { position: PositionInput } | { ignored: string };

/** The longest device id accepted before hashing (issued ids are 32 characters; trackers' own ids are shorter). */
const MAX_ID_LENGTH = 200;
/** A device id as the app sends it; ids are compared lower-cased, as phones capitalise what is typed. */
export const deviceIdSchema = z.string({ error: 'required' }).trim().min(1, 'required').max(MAX_ID_LENGTH, 'is not a device id').transform((v) => v.toLowerCase());

/** A decimal number sent as text (query string or form field). */
const decimal = () => z.string().trim().regex(/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/, 'must be a number').transform(Number);

/**
 * A value some devices send as -1 (or another negative) when they do not know it, as iOS does
 * for speed and course: unknown, not an error.
 */
const known = (v: number | undefined) => (v === undefined || v < 0 ? undefined : v);
const round = (v: number | undefined, digits: number) => (v === undefined ? undefined : Number(v.toFixed(digits)));

/** Epoch seconds below this, epoch milliseconds from it (1e11 s is the year 5138; 1e11 ms is 1973). */
const MS_FROM = 1e11;
const ISO = z.iso.datetime({ offset: true });
/** ISO 8601 as Traccar reads it (Java's ISO_ZONED_DATE_TIME): seconds optional, a `[Region/City]` after the offset allowed. */
const ISO_ZONED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})(?:\[[A-Za-z0-9_/+-]+\])?$/;
/** Traccar's other form, `yyyy-MM-dd HH:mm:ss` (some trackers send it; `+` in a query is the space), read in UTC. */
const SPACED = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(\.\d+)?$/;
const two = (v: string) => v.padStart(2, '0');

/**
 * Every time form Traccar's OsmAnd decoder reads, as epoch milliseconds (NaN for none, or an
 * impossible date: Feb 30, hour 24, minute 60 are refused, not rolled over as Java's lenient
 * parser would): epoch seconds or milliseconds, ISO 8601 with a zone, `yyyy-MM-dd HH:mm:ss` UTC.
 */
export function osmandTimeMs(text: string): number {
  const v = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) {
    const n = Number(v);
    return Math.round(n >= MS_FROM ? n : n * 1000);
  }
  const zoned = ISO_ZONED.exec(v);
  const spaced = SPACED.exec(v);
  const iso = zoned
    ? `${zoned[1]}${zoned[2] ?? ':00'}${zoned[3]}`
    : spaced && `${spaced[1]}-${two(spaced[2])}-${two(spaced[3])}T${two(spaced[4])}:${spaced[5]}:${spaced[6]}${spaced[7] ?? ''}Z`;
  return iso && ISO.safeParse(iso).success ? Date.parse(iso) : NaN;
}

/** OsmAnd's `timestamp` (osmandTimeMs), answered as epoch milliseconds. */
const osmandTime = () => z.string().transform((v, ctx) => {
  const ms = osmandTimeMs(v);
  if (Number.isFinite(ms)) return ms;
  ctx.addIssue({ code: 'custom', message: 'must be epoch seconds, epoch milliseconds, ISO 8601 with a time zone or yyyy-MM-dd HH:mm:ss (UTC)' });
  return z.NEVER;
});

const INVALID = new Set(['false', '0']);
const NO_FIX = 'no fix (0,0)';

/** Query and form parameters of the OsmAnd protocol; unknown ones (charge, driverUniqueId, event…) are ignored. */
export const osmandParamsSchema = z.object({
  lat: decimal().optional(),
  lon: decimal().optional(),
  /** `lat,lon` in one parameter, instead of lat and lon. */
  location: z.string().trim().regex(/^[-+]?[\d.]+\s*,\s*[-+]?[\d.]+$/, 'must be "lat,lon"').optional(),
  timestamp: osmandTime().optional(),
  /** Knots. */
  speed: decimal().optional(),
  bearing: decimal().optional(),
  heading: decimal().optional(),
  /** Metres; accepted, not stored. */
  altitude: decimal().optional(),
  accuracy: decimal().optional(),
  /** Accepted; positions carry an accuracy in metres, which an HDOP is not. */
  hdop: decimal().optional(),
  /** Percent. */
  batt: decimal().optional(),
  valid: z.string().optional(),
}).transform((p, ctx): DeviceReport => {
  if (p.valid !== undefined && INVALID.has(p.valid.trim().toLowerCase())) return { ignored: 'valid=false' };
  let [latitude, longitude] = [p.lat, p.lon];
  if (p.location !== undefined && (latitude === undefined || longitude === undefined)) [latitude, longitude] = p.location.split(',').map(Number);
  if (latitude === undefined || longitude === undefined) {
    ctx.addIssue({ code: 'custom', path: [latitude === undefined ? 'lat' : 'lon'], message: 'required (lat and lon, or location=lat,lon)' });
    return z.NEVER;
  }
  if (latitude === 0 && longitude === 0) return { ignored: NO_FIX };
  return {
    position: {
      latitude,
      longitude,
      accuracy: known(p.accuracy),
      heading: known(p.bearing ?? p.heading),
      speed: round(known(p.speed) === undefined ? undefined : p.speed! * KNOT_MPS, 3),
      battery: known(p.batt),
      timestamp: p.timestamp,
    },
  };
});

/** The OsmAnd protocol's JSON form (Traccar's, as background-geolocation libraries send it); speed in m/s, battery level 0–1. */
export const osmandJsonSchema = z.object({
  device_id: deviceIdSchema,
  location: z.object({
    timestamp: ISO.optional(),
    coords: z.object({
      latitude: z.number(),
      longitude: z.number(),
      accuracy: z.number().optional(),
      speed: z.number().optional(),
      heading: z.number().optional(),
      altitude: z.number().optional(),
    }),
    battery: z.object({ level: z.number().max(1).optional(), is_charging: z.boolean().optional() }).optional(),
    is_moving: z.boolean().optional(),
  }),
}).transform(({ location: l }): DeviceReport => {
  if (l.coords.latitude === 0 && l.coords.longitude === 0) return { ignored: NO_FIX };
  const level = known(l.battery?.level);
  return {
    position: {
      latitude: l.coords.latitude,
      longitude: l.coords.longitude,
      accuracy: known(l.coords.accuracy),
      heading: known(l.coords.heading),
      speed: known(l.coords.speed),
      battery: round(level === undefined ? undefined : level * 100, 1),
      timestamp: l.timestamp,
    },
  };
});

/** Any OwnTracks message: only `location` ones carry a position (others, such as `transition` or `lwt`, are acknowledged). */
export const owntracksMessageSchema = z.object({ _type: z.string({ error: 'required' }) });

/** OwnTracks' `location` message (HTTP mode): vel in km/h, tst in epoch seconds. */
export const owntracksLocationSchema = z.object({
  lat: z.number(),
  lon: z.number(),
  tst: z.number().int().positive(),
  acc: z.number().optional(),
  alt: z.number().optional(),
  /** km/h. */
  vel: z.number().optional(),
  cog: z.number().optional(),
  batt: z.number().optional(),
  tid: z.string().optional(),
}).transform((m): DeviceReport => {
  if (m.lat === 0 && m.lon === 0) return { ignored: NO_FIX };
  const vel = known(m.vel);
  return {
    position: {
      latitude: m.lat,
      longitude: m.lon,
      accuracy: known(m.acc),
      heading: known(m.cog),
      speed: round(vel === undefined ? undefined : vel * KMH_MPS, 3),
      battery: known(m.batt),
      timestamp: m.tst * 1000,
    },
  };
});
