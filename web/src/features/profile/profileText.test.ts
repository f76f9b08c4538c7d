import { describe, expect, it } from 'vitest';
import { genderText, orNotProvided, shiftText } from './profileText';

describe('profile wording', () => {
  it('words gender 0 and 1, anything else is not specified', () => {
    expect([0, 1, 2, null, undefined].map(genderText)).toEqual(['Male', 'Female', 'Not specified', 'Not specified', 'Not specified']);
  });

  it("shows 'Shift' plus the number", () => {
    expect(shiftText(3)).toBe('Shift 3');
    expect(shiftText(null)).toBe('Not provided');
  });

  it("shows 'Not provided' for empty values", () => {
    expect(orNotProvided('')).toBe('Not provided');
    expect(orNotProvided('   ')).toBe('Not provided');
    expect(orNotProvided(null)).toBe('Not provided');
    expect(orNotProvided('Hyderabad')).toBe('Hyderabad');
  });
});
