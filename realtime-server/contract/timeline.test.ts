import { describe, expect, it } from 'vitest';
import { CASE_LOCATION_COLUMN_NAMES } from './privacy';
import { DIVERSION_TIMELINE_LABELS, INTAKE_TIMELINE_LABELS } from './timeline';

describe('INTAKE_TIMELINE_LABELS', () => {
  it('names every intake column a case entry may hold', () => {
    expect(Object.keys(INTAKE_TIMELINE_LABELS).sort()).toEqual(['intake_address', 'intake_latitude', 'intake_longitude', 'intake_source']);
    expect(Object.keys(INTAKE_TIMELINE_LABELS).sort()).toEqual(CASE_LOCATION_COLUMN_NAMES.filter((c) => c.startsWith('intake_')).sort());
    expect(INTAKE_TIMELINE_LABELS.intake_address).toBe('Location');
  });
});

describe('DIVERSION_TIMELINE_LABELS', () => {
  it('names both sides of a diversion in words', () => {
    expect(DIVERSION_TIMELINE_LABELS).toEqual({ diverted_to: 'Unit taken for call', diverted_from: 'Unit taken from call' });
  });
});
