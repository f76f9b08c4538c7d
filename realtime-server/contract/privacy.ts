import type { CaseDto } from './cases';

/**
 * Where a patient is, declared once. Retention (jobs/retention.ts) clears and redacts these
 * fields and nothing else, the repositories ask which cases still hold them, the case presenter
 * builds its location from exactly them, and db/locationColumns.test.ts walks the migrated schema
 * and fails on a column whose name looks like a place (LOCATION_LIKE) that is classified nowhere here.
 *
 * A new field that says where a patient is goes here first; everything that forgets a location follows.
 */

/**
 * The columns of `cases` that hold where its patient is: the GPS fix the patient shared (with its
 * accuracy and time) and the location taken on the phone (with how it was found). `place` columns
 * locate the patient by themselves; `detail` columns only describe a place and go with it. Retention
 * sets them all to null once a case has been ended `retentionDays`.
 */
export const CASE_LOCATION_COLUMNS = {
  latitude: 'place',
  longitude: 'place',
  location_accuracy: 'detail',
  location_at: 'detail',
  intake_latitude: 'place',
  intake_longitude: 'place',
  intake_address: 'place',
  intake_source: 'detail',
} as const;
export type CaseLocationColumn = keyof typeof CASE_LOCATION_COLUMNS;
export const CASE_LOCATION_COLUMN_NAMES = Object.keys(CASE_LOCATION_COLUMNS) as CaseLocationColumn[];
/** The `place` columns: a case holds a location while any of these is set. */
export const CASE_PLACE_COLUMNS = CASE_LOCATION_COLUMN_NAMES.filter((k) => CASE_LOCATION_COLUMNS[k] === 'place');

/**
 * Every field of a presented case (CaseDto), classified: `true` when it says (or is computed from)
 * where the patient is. The type makes the list whole: a new CaseDto field does not compile until
 * it is classified here. presentCase builds exactly the `true` fields from CASE_LOCATION_COLUMNS,
 * and a 'deleted' timeline entry's copy of the case loses them at retention.
 */
const CASE_DTO_FIELDS = {
  id: false, description: false, status: false, priority: false, call_received_at: false, assignment: false, assignments: false, backup_request: false,
  caseType: false, patientName: false, patient_name: false, email: false, patient_email: false, operator_id: false,
  ambulance_id: false, license_plate: false, created_at: false, updated_at: false, closed_at: false, version: false, demo: false,
  latitude: true,
  longitude: true,
  location_source: true,
  location_accuracy: true,
  location_updated_at: true,
  intake_location: true,
  patient_location: true,
  location_mismatch_m: true,
  wkb: true,
} as const satisfies Record<keyof CaseDto, boolean>;
export type CaseDtoLocationKey = { [K in keyof typeof CASE_DTO_FIELDS]: (typeof CASE_DTO_FIELDS)[K] extends true ? K : never }[keyof typeof CASE_DTO_FIELDS];
export const CASE_DTO_LOCATION_KEYS = (Object.keys(CASE_DTO_FIELDS) as (keyof CaseDto)[]).filter((k): k is CaseDtoLocationKey => CASE_DTO_FIELDS[k]);
/** A presented case's location: what presentCase derives from the location columns. */
export type CaseDtoLocation = Pick<CaseDto, CaseDtoLocationKey>;

/** The keys of a 'location' timeline entry (the patient's share): the whole entry is the position. */
export const SHARE_KEYS = ['latitude', 'longitude', 'accuracy'] as const;
/** What a redacted 'location' entry keeps: that a share happened, and when (its entry's time). */
export const REDACTED_SHARE: Readonly<Record<(typeof SHARE_KEYS)[number], null> & { redacted: true }> = Object.freeze({
  ...(Object.fromEntries(SHARE_KEYS.map((k) => [k, null])) as Record<(typeof SHARE_KEYS)[number], null>),
  redacted: true as const,
});

/**
 * Which keys of a timeline entry's sides hold where the patient is, by the entry's action; retention
 * removes them. Other actions hold none: 'location.viewed' names only the time of the share that was
 * read, 'tracking' and 'unit.*' name ambulances, e-mails and steps.
 */
export const TIMELINE_LOCATION_KEYS = {
  /** A patient's share: replaced whole by REDACTED_SHARE. */
  location: SHARE_KEYS as readonly string[],
  /**
   * A creation or an edit names the case's columns it wrote: its place columns are removed and the
   * entry says `redacted: true`; a detail (how the intake location was found) stays, it places no one.
   */
  created: CASE_PLACE_COLUMNS as readonly string[],
  updated: CASE_PLACE_COLUMNS as readonly string[],
  /** A deletion keeps a copy of the case (a CaseDto): its location fields, and the row's columns for a copy of the row, become null. */
  deleted: [...new Set<string>([...CASE_DTO_LOCATION_KEYS, ...CASE_LOCATION_COLUMN_NAMES])] as readonly string[],
} as const;

/**
 * Columns whose names look like a place (LOCATION_LIKE) but do not hold where a patient is, each
 * with the reason. Retention treats the ambulances' own history by its age (jobs/retention.ts step 3).
 */
export const NOT_PATIENT_LOCATION: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cases: {
    location_token_hash: 'the hash of the patient\'s location-link token: a secret, no place',
  },
  ambulances: {
    latitude: 'an ambulance\'s latest fix: where the unit is, reported by its crew\'s device or staff',
    longitude: 'an ambulance\'s latest fix',
    accuracy: 'an ambulance\'s latest fix',
    position_at: 'when the ambulance\'s latest fix was taken',
    position_source: 'which device or person reported the ambulance\'s latest fix',
    place_name: 'the place name of the ambulance\'s latest fix',
  },
  ambulance_positions: {
    latitude: 'an ambulance\'s position history; retention deletes it after retentionDays',
    longitude: 'an ambulance\'s position history',
    accuracy: 'an ambulance\'s position history',
  },
  hospitals: {
    address: 'a hospital\'s own address, as an admin entered it',
    latitude: 'where a hospital is',
    longitude: 'where a hospital is',
  },
  users: {
    address: 'a staff member\'s own address, from their profile',
    location: 'a staff member\'s station, from their profile',
  },
  outbox: {
    to_address: 'an e-mail address',
  },
};

/**
 * Columns that hold copies of patients' places among other things (their names do not say so),
 * each with how the copy is forgotten.
 */
export const PATIENT_LOCATION_COPIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cases: {
    search_text: 'holds the intake address for the history search; rebuilt from the row when retention clears it',
  },
  case_events: {
    before: 'a timeline entry\'s earlier values: TIMELINE_LOCATION_KEYS says which hold a place; retention removes them',
    after: 'a timeline entry\'s new values: TIMELINE_LOCATION_KEYS says which hold a place; retention removes them',
  },
  geocode_cache: {
    key: 'coordinates looked up (patients\' among them): a cache, deleted after retentionDays',
    display_name: 'the place name of those coordinates: a cache, deleted after retentionDays',
  },
  geocode_searches: {
    query: 'an address typed at intake: a cache, deleted after retentionDays',
    results: 'the places found for it: a cache, deleted after retentionDays',
  },
  outbox: {
    body_text: 'a crew\'s e-mail names the intake address; deleted retentionDays after it was sent or failed',
  },
  idempotency_keys: {
    response_body: 'the answer to a keyed request (a created case among them), replayed for a day, then deleted',
  },
};

/**
 * A column name that looks like a place: a whole word (between underscores, or the name itself)
 * such as lat, lng or pos, or a part such as latitude, address, location, position, geo or coord.
 */
export function locationLike(column: string): boolean {
  const name = column.toLowerCase();
  if (/(latitude|longitude|address|place|location|position|accuracy|geo|coord|what3words|w3w|plus_?code|gps|wkb)/.test(name)) return true;
  return name.split(/[^a-z0-9]+/).some((word) => /^(lat|lng|lon|long|pos|point|olc|where)$/.test(word));
}

/** How a column is classified here, or null when it is not. */
export function locationClass(table: string, column: string): 'patient' | 'copy' | 'not-patient' | null {
  if (table === 'cases' && column in CASE_LOCATION_COLUMNS) return 'patient';
  if (PATIENT_LOCATION_COPIES[table]?.[column]) return 'copy';
  if (NOT_PATIENT_LOCATION[table]?.[column]) return 'not-patient';
  return null;
}

/** Of these columns, the location-like ones classified nowhere above: what a new migration must add here. */
export function unclassifiedLocationColumns(columns: readonly { table: string; column: string }[]): string[] {
  return columns.filter((c) => locationLike(c.column) && locationClass(c.table, c.column) == null).map((c) => `${c.table}.${c.column}`);
}

/** Every column classified above, as `table.column`: each must exist in the schema. */
export function classifiedColumns(): string[] {
  const named = (t: Readonly<Record<string, Readonly<Record<string, string>>>>) =>
    Object.entries(t).flatMap(([table, cols]) => Object.keys(cols).map((c) => `${table}.${c}`));
  return [...CASE_LOCATION_COLUMN_NAMES.map((c) => `cases.${c}`), ...named(PATIENT_LOCATION_COPIES), ...named(NOT_PATIENT_LOCATION)];
}
