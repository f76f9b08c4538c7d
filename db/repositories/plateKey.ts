import unhomoglyph from 'unhomoglyph';

/** What a reader never sees as part of a plate: spaces, dashes and invisible (default-ignorable) characters. */
const NOT_READ = /[\s\p{Pd}\p{Default_Ignorable_Code_Point}]+/gu;

/**
 * The key under which two plates are one ambulance: plates that read the same have the same key.
 *
 * - NFKC turns compatibility forms into plain ones (fullwidth "ＴＳ０９", mathematical "𝐓𝐒").
 * - Upper case, as plates are read; folding up rather than down keeps "M" apart from "RN"
 *   (Unicode maps a lower-case "m" to "rn").
 * - The Unicode TR39 confusable skeleton (confusables.txt, through `unhomoglyph`): Cyrillic
 *   "Т", Greek "Τ" and Latin "T" become one letter, and so do "0" and "O", "1" and "I".
 * - Spaces, dashes and invisible characters are left out ("TS09-EA-1003" is "TS09 EA 1003").
 *
 * A key is for comparing only, never shown: the plate is displayed as the admin typed it.
 * It may be longer than the plate (NFKC and the skeleton expand some characters).
 */
export function plateKey(plate: string): string {
  const folded = plate.normalize('NFKC').toUpperCase().normalize('NFD').replace(NOT_READ, '');
  return unhomoglyph(folded).normalize('NFD').replace(NOT_READ, '');
}
