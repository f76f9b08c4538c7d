import { describe, expect, it } from 'vitest';
import type { CaseRow } from '../../db/repositories/types';
import { CASE_DTO_LOCATION_KEYS, CASE_LOCATION_COLUMN_NAMES, type CaseDto } from '../contract';
import { presentCase, presentCaseLocation } from './presentCase';

/**
 * contract/privacy.ts says which CaseDto fields are the patient's location and which columns they come
 * from; retention forgets the columns and nulls the fields in a deleted case's copy. These hold the
 * presenter to that list both ways: every listed field comes from the listed columns, no other does.
 */
const located: CaseRow = {
  id: 'c1', description: 'Fall', status: 'closed', case_type: 'other', patient_name: 'Pat Doe', patient_email: 'pat@example.com',
  operator_id: 2, ambulance_id: null, version: 7, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T11:00:00.000Z',
  closed_at: '2026-11-20T11:00:00.000Z', location_token_hash: 'h', dispatched_at: null, priority: 2,
  call_received_at: '2026-11-20T09:59:00.000Z', assignment_id: null, demo: 0, license_plate: null,
  // The shared fix and the intake place lie about 5 km apart, so even the mismatch is set.
  latitude: 17.4, longitude: 78.45, location_accuracy: 12, location_at: '2026-11-20T10:05:00.000Z',
  intake_latitude: 17.3615636, intake_longitude: 78.4746645, intake_address: 'Charminar, Hyderabad', intake_source: 'address',
};
const cleared: CaseRow = { ...located, ...Object.fromEntries(CASE_LOCATION_COLUMN_NAMES.map((c) => [c, null])) };
const others = (d: CaseDto) => Object.fromEntries(Object.entries(d).filter(([k]) => !(CASE_DTO_LOCATION_KEYS as string[]).includes(k)));

describe('presentCase and the contract\'s location fields', () => {
  it('a located case presents every location field the contract lists', () => {
    const dto = presentCase(located);
    expect(CASE_DTO_LOCATION_KEYS.filter((k) => dto[k] == null)).toEqual([]);
    expect(dto).toMatchObject({ location_source: 'patient', intake_location: { address: 'Charminar, Hyderabad' }, location_mismatch_m: expect.any(Number) });
  });

  it('with the contract\'s location columns cleared (what retention does), every location field is null and nothing else changes', () => {
    const dto = presentCase(cleared);
    expect(Object.fromEntries(CASE_DTO_LOCATION_KEYS.map((k) => [k, dto[k]]))).toEqual(Object.fromEntries(CASE_DTO_LOCATION_KEYS.map((k) => [k, null])));
    expect(others(dto)).toEqual(others(presentCase(located)));
    // No other field tells where the patient was: the cleared case's text holds none of the place.
    const text = JSON.stringify(dto);
    for (const secret of ['Charminar', '17.4', '78.45', '17.36', '78.47']) expect(text, secret).not.toContain(secret);
  });

  it('the live share event carries the same location fields', () => {
    const dto = presentCase(located);
    const event = presentCaseLocation(located);
    for (const [k, v] of Object.entries(event)) if (k !== 'id' && k !== 'version') expect(v, k).toEqual(dto[k as keyof CaseDto]);
  });
});
