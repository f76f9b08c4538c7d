import { describe, expect, it } from 'vitest';
import { batteryText, intakeAddressText, mismatchText, sourceText, staleHint } from './positionText';

describe('battery', () => {
  it('words a reported battery, low under 20 %', () => {
    expect(batteryText(23)).toEqual({ label: 'Battery 23%', low: false, warning: null });
    expect(batteryText(20)).toMatchObject({ low: false });
    expect(batteryText(15)).toEqual({ label: 'Battery 15%', low: true, warning: 'Low battery' });
    expect(batteryText(19.6)).toMatchObject({ label: 'Battery 20%' });
  });

  it('says nothing when no battery was reported', () => {
    expect(batteryText(null)).toBeNull();
    expect(batteryText(undefined)).toBeNull();
    expect(batteryText(Number.NaN)).toBeNull();
  });
});

describe('position source', () => {
  it('names each source in words', () => {
    expect(sourceText('osmand')).toBe('via Traccar/OsmAnd');
    expect(sourceText('owntracks')).toBe('via OwnTracks');
    expect(sourceText('driver')).toBe('via the driver page');
    expect(sourceText('staff')).toBe('set by staff');
    expect(sourceText(null)).toBeNull();
    expect(sourceText('gps-from-space')).toBeNull();
  });

  it("says after how long each source's position counts as stale", () => {
    expect(staleHint('driver')).toBe('No position from this ambulance for more than 1 minute');
    expect(staleHint('owntracks')).toBe('No position from this ambulance for more than 2 minutes');
    expect(staleHint('osmand', { driver: 60, staff: 120, osmand: 600, owntracks: 90 })).toBe('No position from this ambulance for more than 10 minutes');
    expect(staleHint('owntracks', { driver: 60, staff: 120, osmand: 600, owntracks: 90 })).toBe('No position from this ambulance for more than 90 seconds');
  });
});

describe("a call's two locations", () => {
  it('gives the address taken on the phone', () => {
    expect(intakeAddressText({ intake_location: { latitude: 1, longitude: 2, address: '12 High Street', source: 'address' } })).toBe('Address given: 12 High Street');
    expect(intakeAddressText({ intake_location: null })).toBeNull();
  });

  it("warns with the distance when the patient's GPS is far from the address", () => {
    expect(mismatchText({ location_mismatch_m: 1234 })).toBe("Patient's GPS is 1.2 km from the address given");
    expect(mismatchText({ location_mismatch_m: 450 })).toBe("Patient's GPS is 450 m from the address given");
    expect(mismatchText({ location_mismatch_m: null })).toBeNull();
  });
});
