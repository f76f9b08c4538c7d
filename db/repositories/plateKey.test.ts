import { describe, expect, it } from 'vitest';
import { plateKey } from './plateKey';

describe('plateKey', () => {
  it('is one key for plates that read the same', () => {
    const key = plateKey('TS09 EA 1003');
    for (const twin of ['\u0422S09 EA 1003', '\u03A4S09 \u0395\u0391 1003', 'ＴＳ０９ ＥＡ １００３', 'ts09-ea-1003', ' TS09EA1003 ', 'TSO9 EA IOO3', 'TS09\u00A0EA\u20141003', 'TS09 EA 1003\u200B'])
      expect([twin, plateKey(twin)]).toEqual([twin, key]);
  });

  it('keeps plates apart that read differently', () => {
    const plates = ['TS09 EA 1003', 'TS09 EA 1004', 'TS09 EA 1008', 'TS09 EB 1003', 'TS09 M 1', 'TS09 RN 1', 'TS09 L 1', 'TS09 É 1', 'TS09 E 1', 'KA01 AB 2'];
    expect(new Set(plates.map(plateKey)).size).toBe(plates.length);
  });
});
