import { encode } from 'pluscodes';
import { describe, expect, it } from 'vitest';
import { parseLocationText } from './locationText';

/** The demo city's centre (CENTRE_LOCATION's default). */
const centre = { latitude: 17.385, longitude: 78.4867 };
const parse = (text: string) => parseLocationText(text, centre);

describe('coordinates in decimal degrees', () => {
  it.each([
    ['17.385, 78.4867', 17.385, 78.4867],
    ['17.385,78.4867', 17.385, 78.4867],
    ['17.385 78.4867', 17.385, 78.4867],
    ['  17.385 ,  78.4867  ', 17.385, 78.4867],
    ['17.385; 78.4867', 17.385, 78.4867],
    ['(17.385, 78.4867)', 17.385, 78.4867],
    ['-33.8688, 151.2093', -33.8688, 151.2093],
    ['+51.5, -0.1276', 51.5, -0.1276],
    ['17, 78', 17, 78],
    ['90, 180', 90, 180],
    ['-90, -180', -90, -180],
    ['-0, 0', 0, 0],
  ])('%j is latitude %d, longitude %d', (text, latitude, longitude) => {
    expect(parse(text)).toEqual({ displayName: `${latitude}, ${longitude}`, latitude, longitude, source: 'coordinates' });
  });

  it.each([
    ['17.385° N, 78.4867° E', 17.385, 78.4867],
    ['17.385°N 78.4867°E', 17.385, 78.4867],
    ['17.385 n, 78.4867 e', 17.385, 78.4867],
    ['N17.385 E78.4867', 17.385, 78.4867],
    ['33.8688 S, 151.2093 E', -33.8688, 151.2093],
    ['51.5 N, 0.1276 W', 51.5, -0.1276],
    // Hemisphere letters name the axes, so longitude may come first.
    ['78.4867 E, 17.385 N', 17.385, 78.4867],
    ['17.385°, 78.4867°', 17.385, 78.4867],
  ])('%j with hemispheres or degree signs is latitude %d, longitude %d', (text, latitude, longitude) => {
    expect(parse(text)).toMatchObject({ latitude, longitude, source: 'coordinates' });
  });

  it.each([
    '91, 10', '-90.5, 10', '17.4, 181', '17.4, -180.01', '100 N, 10 E', '10 N, 181 E',
    '17 E, 78 E', '17 N, 78 S', '-17 S, 78 E', 'N17 S, 78', '17.385 78.4867 12', '17.385, 78.4867,',
  ])('%j is out of range or contradicts itself: null', (text) => {
    expect(parse(text)).toBeNull();
  });
});

describe('plus codes', () => {
  it('decodes a full code to the centre of its cell (cross-checked by hand)', () => {
    // 7J9WCC2P+VV, digits "23456789CFGHJMPQRVWX" worth 0..19: pairs (7,J)=(5,12) give -90+100=10 and -180+240=60;
    // (9,W)=(7,18) add 7 and 18; (C,C)=(8,8) add 0.4 and 0.4; (2,P)=(0,14) add 0 and 0.035; (V,V)=(17,17) add
    // 0.002125 each; the cell's centre is half of 0.000125 further: 17.4021875, 78.4371875.
    const r = parse('7J9WCC2P+VV');
    expect(r).toMatchObject({ displayName: '7J9WCC2P+VV', source: 'plus_code' });
    expect(r!.latitude).toBeCloseTo(17.4021875, 5);
    expect(r!.longitude).toBeCloseTo(78.4371875, 5);
  });

  it('agrees with the library encoding the centre, and reads lower case', () => {
    const code = encode(centre)!;
    expect(code).toBe('7J9W9FPP+2M');
    const r = parse(code.toLowerCase());
    expect(r).toMatchObject({ displayName: code, source: 'plus_code' });
    expect(Math.abs(r!.latitude - centre.latitude)).toBeLessThan(0.000125);
    expect(Math.abs(r!.longitude - centre.longitude)).toBeLessThan(0.000125);
  });

  it('reads a code with extra precision after the pairs', () => {
    const r = parse('7J9WCC2P+VVX');
    expect(r).toMatchObject({ displayName: '7J9WCC2P+VVX', source: 'plus_code' });
    expect(r!.latitude).toBeCloseTo(17.40224, 4);
  });

  it('recovers a short code from the centre, keeping a locality in the name', () => {
    expect(parse('CC2P+VV')).toMatchObject({ displayName: '7J9WCC2P+VV', latitude: 17.402188, longitude: 78.437187, source: 'plus_code' });
    expect(parse('CC2P+VV Hyderabad, Telangana')).toMatchObject({ displayName: '7J9WCC2P+VV Hyderabad, Telangana', latitude: 17.402188, longitude: 78.437187 });
    expect(parse('CC2P+VV, Hyderabad')).toMatchObject({ displayName: '7J9WCC2P+VV Hyderabad', latitude: 17.402188 });
    expect(parse('cc2p+vv')).toMatchObject({ displayName: '7J9WCC2P+VV' });
    // Shorter still: the two digits before "+" pick the cell nearest the centre.
    expect(parse('2P+VV')).toMatchObject({ displayName: '7J9WCF2P+VV', source: 'plus_code' });
    // More than two digits after "+" (the library alone refuses these).
    expect(parse('CC2P+VVX')).toMatchObject({ displayName: '7J9WCC2P+VVX', source: 'plus_code' });
  });

  it('recovers the same short code to the cell nearest another centre', () => {
    const elsewhere = { latitude: 51.5074, longitude: -0.1278 }; // London
    const full = encode(elsewhere)!;
    const short = full.slice(4);
    const r = parseLocationText(short, elsewhere);
    expect(r).toMatchObject({ displayName: full, source: 'plus_code' });
    expect(Math.abs(r!.latitude - elsewhere.latitude)).toBeLessThan(0.001);
    // Relative to Hyderabad the same short code is somewhere else entirely.
    expect(parse(short)!.displayName).not.toBe(full);
  });

  it.each([
    '7J9WCC2P+', 'CC2P+', '7J9WCC00+', '7J9W0000+22', 'C2P+VV', 'CC2P+V', 'XXXXXXXX+XX', '7J9WCC2P+VVXXXXXX',
    'CC2P VV', 'CC2A+VV', '+VV', 'CC2P++VV',
  ])('%j is no place: null', (text) => {
    expect(parse(text)).toBeNull();
  });
});

describe('junk and addresses', () => {
  it.each([
    '', '   ', 'hello', '12', '12,', ',12', '12.5', '17.385,', 'abc, def', '12 Main Street', 'Charminar, Hyderabad',
    "1; DROP TABLE cases; --", "' OR 1=1 --", '17.385, 78.4867; DELETE FROM cases', 'NaN, NaN', 'Infinity, 0', '1e1, 2',
    '0x11, 0x4e', '１７.３８５, ７８.４８６７', '17.385\u000078.4867',
  ])('%j is not understood locally: null', (text) => {
    expect(parse(text)).toBeNull();
  });

  it('ignores very long input without trying to parse it', () => {
    expect(parse(`${'1'.repeat(10_000)}, 2`)).toBeNull();
    expect(parse(`17.385, 78.4867${' '.repeat(300)}x`)).toBeNull();
    expect(parse('7J9WCC2P+VV ' + 'Hyderabad '.repeat(50))).toBeNull();
    // Whitespace alone does not make text long.
    expect(parse(`${' '.repeat(1000)}17.385, 78.4867${' '.repeat(1000)}`)).toMatchObject({ source: 'coordinates' });
  });
});
