/**
 * The text a history search (`q`) matches: the SPEC's fields of a case in one lower-cased,
 * NFC-normalised column, so one index (SQLite FTS5 trigram, PostgreSQL pg_trgm) serves the
 * search. Lower-cased here in JS, not by the database: SQLite's lower() folds ASCII only, and
 * "ÅSA" must find "åsa". Fields are joined by a newline so a phrase never spans two of them.
 */
export interface SearchFields {
  id: string;
  description: string;
  status: string;
  patient_name: string;
  patient_email: string;
  intake_address?: string | null;
  license_plate?: string | null;
}

export const foldSearch = (text: string) => text.normalize('NFC').toLowerCase();

export const searchTextOf = (c: SearchFields) =>
  foldSearch([c.id, c.description, c.status, c.patient_name, c.patient_email, c.intake_address, c.license_plate].filter((v) => v).join('\n'));
