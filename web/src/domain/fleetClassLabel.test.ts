import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto } from '../api/contract';
import { classify, fleetClassLabel } from './fleetRules';

describe('fleetClassLabel: a row says the class it is counted in', () => {
  it('calls a busy ambulance on an active case On Emergency, not Busy', () => {
    const a = { id: 7, license_plate: 'P-7', status: 'busy' } as AmbulanceDto;
    const cases = [{ status: 'active', ambulance_id: 7, license_plate: null }] as unknown as CaseDto[];
    expect(fleetClassLabel(classify(a, cases), a.status)).toBe('On Emergency');
    expect(fleetClassLabel(classify(a, []), a.status)).toBe('Busy');
  });
  it('uses the counters\' words, and the status for anything else', () => {
    expect(fleetClassLabel('available', 'available')).toBe('Available');
    expect(fleetClassLabel('other', 'maintenance')).toBe('Maintenance');
    expect(fleetClassLabel('other', 'towed')).toBe('TOWED');
    expect(fleetClassLabel('other', null)).toBe('UNKNOWN');
  });
});
