import { describe, expect, it } from 'vitest';
import { caseIdFromPath } from './caseIdFromPath';
import { ambulanceIdFromPath } from '../track/ambulanceIdFromPath';

describe('the case id of the location page', () => {
  it('is the one segment after /location/, decoded, a trailing slash allowed', () => {
    expect(caseIdFromPath('/location/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a')).toBe('3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a');
    expect(caseIdFromPath('/location/abc/')).toBe('abc');
    expect(caseIdFromPath('/location/a%20b')).toBe('a b');
    expect(caseIdFromPath('/location/%E0%A4%A')).toBe('%E0%A4%A');
  });

  it('is none for any other path', () => {
    for (const p of ['/location', '/location/', '/location/a/b', '/locations/a', '/', '/location.html']) expect(caseIdFromPath(p)).toBeNull();
  });
});

describe('the ambulance id of the tracking page', () => {
  it('is the one segment after /track/, the same rules', () => {
    expect(ambulanceIdFromPath('/track/6')).toBe('6');
    expect(ambulanceIdFromPath('/track/6/')).toBe('6');
    for (const p of ['/track', '/track/', '/track/6/x', '/tracks/6', '/location/6']) expect(ambulanceIdFromPath(p)).toBeNull();
  });
});
