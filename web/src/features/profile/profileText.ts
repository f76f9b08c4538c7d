// How the Profile screen words a staff member's fields (SPEC §2 "Profile screen").

export const NOT_PROVIDED = 'Not provided';

export const orNotProvided = (value: string | null | undefined) =>
  value && value.trim() ? value : NOT_PROVIDED;

/** 0 Male, 1 Female; anything else is not specified on the profile. */
export function genderText(gender: number | null | undefined) {
  if (gender === 0) return 'Male';
  if (gender === 1) return 'Female';
  return 'Not specified';
}

/** 'Shift' plus the number. */
export const shiftText = (shift: number | null | undefined) =>
  shift === null || shift === undefined ? NOT_PROVIDED : `Shift ${shift}`;
