// What the intake location box understands without any network (issue 16): "lat, lon" and plus codes.
// Zod-free; the server answers the web's address search with it (the web itself does not parse).
import * as pluscodesModule from 'pluscodes';
import type { LatLon } from './geo';
import type { GeocodeSearchResult } from './location';

type PlusCodes = typeof pluscodesModule;
// pluscodes is CommonJS flagged __esModule: Node's ESM loader offers it only as `default`
// (module.exports), while bundlers and vitest offer its named exports. Take whichever holds them.
const interop = pluscodesModule as PlusCodes & { default?: PlusCodes };
const { decode, expand } = typeof interop.decode === 'function' ? interop : interop.default!;

/** Longer text is an address for the geocoder, never coordinates or a code. */
const MAX_LOCAL_TEXT = 200;

// One coordinate: optional hemisphere letter before or after, a signed decimal, an optional degree sign.
const NUMBER = String.raw`([NSEW])?\s*([+-]?\d{1,3}(?:\.\d+)?)\s*°?\s*([NSEW])?`;
const COORDINATES = new RegExp(String.raw`^\(?\s*${NUMBER}\s*(?:[,;]\s*|\s+)${NUMBER}\s*\)?$`, 'i');

interface Axis { value: number; hemisphere: string | null }

function axis(before: string | undefined, num: string, after: string | undefined): Axis | null {
  if (before && after) return null;
  const hemisphere = (before ?? after)?.toUpperCase() ?? null;
  let value = Number(num);
  if (hemisphere) {
    if (/^[+-]/.test(num)) return null; // "-17 S" says south twice, or contradicts itself
    if (hemisphere === 'S' || hemisphere === 'W') value = -value;
  }
  return { value, hemisphere };
}

/** "17.385, 78.4867", "17.385 78.4867", "17.385° N, 78.4867° E", "N17.385 E78.4867"; null when out of range. */
function parseCoordinates(text: string): GeocodeSearchResult | null {
  const m = COORDINATES.exec(text);
  if (!m) return null;
  const a = axis(m[1], m[2], m[3]);
  const b = axis(m[4], m[5], m[6]);
  if (!a || !b) return null;
  const isLat = (x: Axis) => x.hemisphere === 'N' || x.hemisphere === 'S';
  const isLon = (x: Axis) => x.hemisphere === 'E' || x.hemisphere === 'W';
  // Hemisphere letters may put longitude first ("78.4867 E, 17.385 N"); without them latitude comes first.
  const [lat, lon] = isLon(a) || isLat(b) ? [b, a] : [a, b];
  if (isLon(lat) || isLat(lon)) return null;
  if (Math.abs(lat.value) > 90 || Math.abs(lon.value) > 180) return null;
  const latitude = lat.value + 0; // -0 reads as 0
  const longitude = lon.value + 0;
  return { displayName: `${latitude}, ${longitude}`, latitude, longitude, source: 'coordinates' };
}

const CODE_DIGITS = '23456789CFGHJMPQRVWX';
/** A plus code naming a place (at least two digits after "+", no padding), optionally followed by a locality. */
const PLUS_CODE = new RegExp(`^([${CODE_DIGITS}]{2,8})\\+([${CODE_DIGITS}]{2,7})(?:[\\s,]+(.*))?$`, 'i');
const SEPARATOR_POSITION = 8;
const PAIRS_AFTER_SEPARATOR = 2;

/** A full plus code ("7J9WCC2P+VV") or a short one relative to `centre` ("CC2P+VV Hyderabad"). */
function parsePlusCode(text: string, centre: LatLon): GeocodeSearchResult | null {
  const m = PLUS_CODE.exec(text);
  if (!m) return null;
  const [, head, tail, locality] = m;
  if (head.length % 2 !== 0) return null; // digits before "+" come in pairs
  let full = `${head}+${tail}`.toUpperCase();
  if (head.length < SEPARATOR_POSITION) {
    // pluscodes' expand counts the padding from the code's whole length, so it refuses a short code
    // with more than two digits after "+": recover the ten-digit code, then put the rest back.
    const recovered = expand(`${head.toUpperCase()}+${tail.slice(0, PAIRS_AFTER_SEPARATOR).toUpperCase()}`, centre);
    if (!recovered) return null;
    full = recovered + tail.slice(PAIRS_AFTER_SEPARATOR).toUpperCase();
  }
  const area = decode(full);
  // pluscodes decodes any digits; a first pair beyond the poles or the antimeridian is no place.
  if (!area || Math.abs(area.latitude) > 90 || Math.abs(area.longitude) > 180) return null;
  const place = locality?.trim();
  return {
    displayName: place ? `${full} ${place}` : full,
    latitude: area.latitude,
    longitude: area.longitude,
    source: 'plus_code',
  };
}

/**
 * What a typed location means without asking the geocoder: coordinates in decimal degrees or a
 * plus code (a short one recovered from `centre`, the dispatch centre). Null for anything else,
 * which is an address for the geocoder, or junk.
 */
export function parseLocationText(text: string, centre: LatLon): GeocodeSearchResult | null {
  const t = text.trim().replace(/\s+/g, ' ');
  if (!t || t.length > MAX_LOCAL_TEXT) return null;
  return parseCoordinates(t) ?? parsePlusCode(t, centre);
}
