/** Point geometry prefixes SPEC §3 recognises: with SRID 4326 (EWKB) and without (plain WKB), little-endian. */
const WITH_SRID = '0101000020E6100000';
const WITHOUT_SRID = '0101000000';

function readDoubleLE(hex: string): number {
  const bytes = new Uint8Array(8);
  for (let i = 0; i < 8; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return new DataView(bytes.buffer).getFloat64(0, true);
}

/** Decodes a hex WKB point (longitude first, then latitude); null unless it is one we recognise. */
export function decodeWkb(hex: string | null | undefined): { latitude: number; longitude: number } | null {
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
