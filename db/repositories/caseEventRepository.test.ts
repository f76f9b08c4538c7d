import { describe, expect, it } from 'vitest';
import { entryFields } from './caseEventRepository';

describe('entryFields', () => {
  it("reads an entry's stored side as its fields", () => {
    expect(entryFields('{"status":"closed","ambulance_id":null}')).toEqual({ status: 'closed', ambulance_id: null });
  });

  it('is null for no side, and for text that is not an object of fields', () => {
    for (const json of [null, '', 'null', '42', '"text"', '{oops', '[1,2]']) expect(entryFields(json)).toBeNull();
  });
});
