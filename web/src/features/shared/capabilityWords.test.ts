import { describe, expect, it } from 'vitest';
import { CAPABILITY_OPTIONS, capabilityHint, capabilityWords, isResponderCar } from './capabilityWords';

describe('capability words', () => {
  it('say what a unit is, and a value the app does not know as it is', () => {
    expect(capabilityWords('responder')).toBe('Car — cannot convey');
    expect(capabilityWords('als')).toBe('ALS');
    expect(capabilityWords('hems')).toBe('HEMS');
    expect(capabilityWords(undefined)).toBe('Unknown');
    expect(capabilityWords('toString')).toBe('TOSTRING');
    expect(capabilityHint('cct')).toBe('Ambulance, critical care');
    expect(capabilityHint('hems')).toBe('');
  });
  it('only a responder is a car', () => {
    expect(CAPABILITY_OPTIONS.filter(isResponderCar)).toEqual(['responder']);
  });
});
