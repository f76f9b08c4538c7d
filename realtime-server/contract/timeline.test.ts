import { describe, expect, it } from 'vitest';
import { timelineFields } from './timeline';

describe('timelineFields', () => {
  it("reads an entry's JSON side as its fields", () => {
    expect(timelineFields('{"status":"closed","ambulance_id":null}')).toEqual({ status: 'closed', ambulance_id: null });
  });

  it('is null for no side, and for text that is not an object of fields', () => {
    for (const json of [null, '', 'null', '42', '"text"', '{oops']) expect(timelineFields(json)).toBeNull();
  });
});
