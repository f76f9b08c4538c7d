/** Little-endian IEEE double as hex. */
function doubleHex(v: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v, true);
  let hex = '';
  for (let i = 0; i < 8; i++) hex += view.getUint8(i).toString(16).padStart(2, '0');
  return hex.toUpperCase();
}

/** Hex EWKB of a point with SRID 4326, longitude first: the `wkb` of a case (SPEC §3). */
export const pointWkb = (latitude: number, longitude: number) =>
  `0101000020E6100000${doubleHex(longitude)}${doubleHex(latitude)}`;
