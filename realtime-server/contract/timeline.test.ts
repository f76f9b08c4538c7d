import { describe, expect, it } from 'vitest';
import { DIVERSION_TIMELINE_LABELS, INTAKE_TIMELINE_LABELS, timelineFields } from './timeline';

describe('timelineFields', () => {
  it("reads an entry's JSON side as its fields", () => {
    expect(timelineFields('{"status":"closed","ambulance_id":null}')).toEqual({ status: 'closed', ambulance_id: null });
  });

  it('is null for no side, and for text that is not an object of fields', () => {
    for (const json of [null, '', 'null', '42', '"text"', '{oops']) expect(timelineFields(json)).toBeNull();
  });
});

describe('INTAKE_TIMELINE_LABELS', () => {
  it('names every intake column a case entry may hold', () => {
    expect(Object.keys(INTAKE_TIMELINE_LABELS).sort()).toEqual(['intake_address', 'intake_latitude', 'intake_longitude', 'intake_source']);
    expect(INTAKE_TIMELINE_LABELS.intake_address).toBe('Location');
  });
});

describe('DIVERSION_TIMELINE_LABELS', () => {
  it('names both sides of a diversion in words', () => {
    expect(DIVERSION_TIMELINE_LABELS).toEqual({ diverted_to: 'Unit taken for call', diverted_from: 'Unit taken from call' });
  });
});
