import { describe, expect, it } from 'vitest';
import type { CaseDto } from '../../api/contract';
import { needsPlaceLookup } from './useCasePlaces';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const kase = (over: Partial<CaseDto>): CaseDto => ({
  status: 'active', latitude: 17.4, longitude: 78.4, location_source: 'patient', closed_at: null, intake_location: null, ...over,
} as CaseDto);

describe('which place names are looked up', () => {
  it('open calls at the patient\'s fix, and calls closed within a day', () => {
    expect(needsPlaceLookup(kase({}), NOW)).toBe(true);
    expect(needsPlaceLookup(kase({ status: 'pending' }), NOW)).toBe(true);
    expect(needsPlaceLookup(kase({ status: 'resolved', closed_at: '2026-11-24T01:00:00Z' }), NOW)).toBe(true);
  });
  it('not a month-old closed call, one known by its intake address, or one without a location', () => {
    expect(needsPlaceLookup(kase({ status: 'closed', closed_at: '2026-10-24T01:00:00Z' }), NOW)).toBe(false);
    expect(needsPlaceLookup(kase({ location_source: 'intake' }), NOW)).toBe(false);
    expect(needsPlaceLookup(kase({ latitude: null, longitude: null, location_source: null }), NOW)).toBe(false);
  });
});
