import type { Knex } from 'knex';
import { holdingIntake } from './caseEventRepository';
import { type SearchFields, searchTextOf } from './caseSearchText';
import { type CaseRow, type Db, type PatientLocationFields, clientName, nowIso, rowLocks, fetched } from './types';

/** The statuses a case ends in (its `closed_at` says when). */
const ENDED = ['closed', 'resolved'];
/** Where a page of ended cases stops: the keyset of `endedBeforeHoldingLocation`. */
export interface EndedKey { closed_at: string; id: string }
/** The statuses of an open call (on the board whatever its age). */
const OPEN = ['active', 'pending'];
/** Rows where any of `columns` is set. */
const holdingColumns = (q: Knex.QueryBuilder, columns: readonly string[]) => {
  for (const c of columns) q.orWhereNotNull(c);
  return q;
};
/** The fields whose change changes a case's search text. */
const SEARCHED: (keyof CaseFields)[] = ['description', 'status', 'patient_name', 'patient_email', 'intake_address', 'ambulance_id'];

export interface CaseHistoryFilter {
  /** Already folded (foldSearch) and trimmed. */
  q?: string;
  /** SQLite: search through the FTS index or by LIKE in page order (caseRepository.planSearch); LIKE when unset. */
  searchBy?: 'index' | 'scan';
  status?: string;
  priority?: number;
  /** created_at ≥ fromIso and < toIso. */
  fromIso?: string;
  toIso?: string;
}

/** `%`, `_` and the escape itself stand for themselves in a LIKE pattern (ESCAPE '\\'). */
const likeContaining = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** One FTS5 phrase (quoted, its quotes doubled): the user's text is never read as FTS operators. */
const ftsPhrase = (q: string) => `"${q.replace(/"/g, '""')}"`;

const FTS_MATCHES = 'select rowid from cases_search where cases_search match ?';
/**
 * On SQLite, a search matching at least this many cases walks the (created_at, id) index in page
 * order with LIKE instead of the FTS index: the matches are then dense enough that a page fills
 * after a few thousand rows, while fetching and sorting every match (a common word matches
 * most of a year) would take seconds.
 */
const FTS_DENSE = 2000;

/**
 * The history filters on `query` (a select over cases). The search: on PostgreSQL ILIKE over
 * search_text, which the pg_trgm GIN index serves (the planner weighs it against the
 * created_at index); on SQLite the FTS5 trigram index for a selective search of 3 characters or
 * more (a trigram needs 3), else LIKE, which walks the (created_at, id) index in page order and
 * stops at the page's end (see planSearch).
 */
function caseHistoryFilter(db: Db, query: Knex.QueryBuilder, f: CaseHistoryFilter) {
  if (f.status) query.where('cases.status', f.status);
  if (f.priority != null) query.where('cases.priority', f.priority);
  if (f.fromIso) query.where('cases.created_at', '>=', f.fromIso);
  if (f.toIso) query.where('cases.created_at', '<', f.toIso);
  if (f.q) {
    if (clientName(db) !== 'better-sqlite3') query.whereRaw("cases.search_text ilike ? escape '\\'", [likeContaining(f.q)]);
    else if (f.searchBy === 'index') query.whereRaw(`cases.search_rowid in (${FTS_MATCHES})`, [ftsPhrase(f.q)]);
    else query.whereRaw("cases.search_text like ? escape '\\'", [likeContaining(f.q)]);
  }
  return query;
}

export interface CaseFields {
  description?: string;
  intake_latitude?: number | null;
  intake_longitude?: number | null;
  intake_address?: string | null;
  intake_source?: string | null;
  status?: string;
  case_type?: string | null;
  patient_name?: string;
  patient_email?: string;
  ambulance_id?: number | null;
  closed_at?: string | null;
  dispatched_at?: string | null;
  priority?: number;
  assignment_id?: number | null;
}

/** Row locks exist on PostgreSQL; SQLite runs one connection, so its write transactions never overlap. */

/** The columns of each assignment a case row carries (`units`). */
const UNIT_COLUMNS = ['id', 'ambulance_id', 'license_plate', 'status', 'capability', 'dispatched_at', 'en_route_at', 'on_scene_at', 'transporting_at', 'at_hospital_at',
  'handover_at', 'cleared_at', 'cancelled_at', 'destination_hospital_id', 'destination_name', 'destination_reason', 'destination_set_at'];
/** A transporting unit's destination and latest fix, for its arrival estimate there (by primary key, only while transporting). */
const ARRIVAL_PAIRS = `'destination_latitude', h.latitude, 'destination_longitude', h.longitude, 'unit_latitude', am.latitude, 'unit_longitude', am.longitude`;
const ARRIVAL_JOINS = "left join hospitals h on u.status = 'transporting' and h.id = u.destination_hospital_id left join ambulances am on h.id is not null and am.id = u.ambulance_id";
/** The unit's latest pre-alert (by the assignment_id index; only a unit with a destination can have one). */
const PREALERT_PAIRS = `'prealert_id', p.id, 'prealert_activation', p.activation, 'prealert_sent_at', p.sent_at, 'prealert_acknowledged_at', p.acknowledged_at`;
const PREALERT_JOIN = 'left join prealerts p on u.destination_hospital_id is not null and p.id = (select max(p2.id) from prealerts p2 where p2.assignment_id = u.id)';
const pairs = `${UNIT_COLUMNS.map((c) => `'${c}', u.${c}`).join(', ')}, ${ARRIVAL_PAIRS}, ${PREALERT_PAIRS}`;
/** Every assignment of the case as one JSON array, by the (case_id) index: a call holds a few. */
const unitsOf = (db: Db) => db.raw(clientName(db) === 'better-sqlite3'
  ? `(select json_group_array(json_object(${pairs})) from assignments u ${ARRIVAL_JOINS} ${PREALERT_JOIN} where u.case_id = cases.id) as units`
  : `(select coalesce(json_agg(json_build_object(${pairs}) order by u.id), '[]'::json) from assignments u ${ARRIVAL_JOINS} ${PREALERT_JOIN} where u.case_id = cases.id) as units`);

/** Cases with their ambulance's plate and every assignment (`units`, the primary among them by `assignment_id`). */
const withPlate = (db: Db) =>
  db<CaseRow>('cases')
    .leftJoin('ambulances', 'ambulances.id', 'cases.ambulance_id')
    .select('cases.*', 'ambulances.license_plate as license_plate', unitsOf(db));

/** Recomputes the search text of the cases `scope` selects (see caseSearchText.ts), writing only those that changed. */
async function refreshSearchText(db: Db, scope: (q: Knex.QueryBuilder) => void) {
  const q = db('cases').leftJoin('ambulances', 'ambulances.id', 'cases.ambulance_id')
    .select('cases.id', 'cases.description', 'cases.status', 'cases.patient_name', 'cases.patient_email', 'cases.intake_address', 'cases.search_text', 'ambulances.license_plate');
  scope(q);
  const rows = (await q) as (SearchFields & { search_text: string | null })[];
  for (const r of rows) {
    const text = searchTextOf(r);
    if (text !== r.search_text) await db('cases').where({ id: r.id }).update({ search_text: text });
  }
}

export const caseRepository = {
  /** Open calls (waiting or running) in board order: priority 1 first, waiting above running, oldest call first. */
  boardOpen: (db: Db) => fetched<CaseRow[]>(withPlate(db).whereIn('cases.status', OPEN)
    .orderBy('cases.priority', 'asc')
    .orderByRaw("case when cases.status = 'pending' then 0 else 1 end")
    .orderBy([{ column: 'cases.call_received_at', order: 'asc' }, { column: 'cases.id', order: 'asc' }])),
  /** The latest `max` calls that ended at or after `sinceIso`, the latest ended first. */
  // closed_at alone: it is set exactly while a case is closed or resolved (caseService.update,
  // the unit's clear), and a status filter here lets SQLite's planner pick the status index
  // and sort every ended call of the year (600 ms at 400,000) instead of reading the window.
  boardEnded: (db: Db, sinceIso: string, max: number) => fetched<CaseRow[]>(withPlate(db).where('cases.closed_at', '>=', sinceIso)
    .orderBy([{ column: 'cases.closed_at', order: 'desc' }, { column: 'cases.id', order: 'desc' }]).limit(max)),
  /** Open calls by status, and every case stored (the board counts its open calls from its own rows). */
  async counts(db: Db): Promise<{ active: number; pending: number; total: number }> {
    const byStatus: { status: string; n: number | string }[] = await db('cases').whereIn('status', OPEN).groupBy('status').select('status').count({ n: '*' });
    const open = Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)]));
    return { active: open.active ?? 0, pending: open.pending ?? 0, total: await caseRepository.total(db) };
  },
  /** Every case stored. */
  total: async (db: Db) => Number((await db('cases').count({ n: '*' }).first())?.n ?? 0),
  /** History: cases with their plate, filtered (see caseHistoryFilter); the caller pages it by (created_at, id). */
  history: (db: Db, f: CaseHistoryFilter) => caseHistoryFilter(db, withPlate(db), f),
  /** The filter with how SQLite should search (FTS_DENSE); PostgreSQL's planner decides for itself. */
  async planSearch(db: Db, f: CaseHistoryFilter): Promise<CaseHistoryFilter> {
    if (!f.q || clientName(db) !== 'better-sqlite3' || [...f.q].length < 3) return f;
    const row = (await db.raw<{ n: number }[]>(`select count(*) as n from (${FTS_MATCHES} limit ${FTS_DENSE})`, [ftsPhrase(f.q)]))[0];
    return { ...f, searchBy: row.n >= FTS_DENSE ? 'scan' : 'index' };
  },
  /** How many cases match, counting at most `cap` + 1 of them (a LIMITed subquery: a broad search stops early). */
  async countHistory(db: Db, f: CaseHistoryFilter, cap: number): Promise<number> {
    const onlyQ = f.status == null && f.priority == null && !f.fromIso && !f.toIso;
    if (onlyQ && f.q && f.searchBy) {
      // The search alone: counted in the FTS index, without reading a case.
      const row = (await db.raw<{ n: number }[]>(`select count(*) as n from (${FTS_MATCHES} limit ${cap + 1})`, [ftsPhrase(f.q)]))[0];
      return Number(row.n);
    }
    const matches = caseHistoryFilter(db, db('cases').select(db.raw('1 as one')), f).limit(cap + 1);
    const row = (await db.count({ n: '*' }).from(matches.as('m')).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  },
  /** The search text of a case, or of every case naming an ambulance (its plate changed). */
  refreshSearchText: (db: Db, by: { id: string } | { ambulanceId: number }) =>
    refreshSearchText(db, (q) => ('id' in by ? q.where('cases.id', by.id) : q.where('cases.ambulance_id', by.ambulanceId))),
  findById: (db: Db, id: string) => fetched<CaseRow | undefined>(withPlate(db).where('cases.id', id).first()),
  /** Locks a case's row until the transaction ends (concurrent writers of it wait). */
  lock: async (db: Db, id: string) => { if (rowLocks(db)) await db('cases').where({ id }).forUpdate().select('id'); },
  /** Locks the rows of every case naming an ambulance. */
  lockReferencingAmbulance: async (db: Db, ambulanceId: number) => {
    if (rowLocks(db)) {
      await db('cases')
        .where({ ambulance_id: ambulanceId })
        .orWhereIn('id', db('assignments').where({ ambulance_id: ambulanceId }).select('case_id'))
        .forUpdate().select('id');
    }
  },
  /** Which of these cases still exist, each held (FOR SHARE) against deletion until the transaction ends. */
  async existingHeld(db: Db, ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const q = db<CaseRow>('cases').whereIn('id', ids.slice(i, i + 500));
      for (const id of await (rowLocks(db) ? q.forShare() : q).pluck('id')) found.add(id);
    }
    return found;
  },
  /** Every case naming an ambulance, whatever its status. */
  referencingAmbulance: (db: Db, ambulanceId: number) => db<CaseRow>('cases').where({ ambulance_id: ambulanceId }),
  /** Cases not naming an ambulance (as their primary) of which an assignment still does: their DTO's units show that ambulance. */
  withAssignmentOf: (db: Db, ambulanceId: number) =>
    db<CaseRow>('cases')
      .whereIn('id', db('assignments').where({ ambulance_id: ambulanceId }).select('case_id'))
      .andWhere((q) => q.whereNull('ambulance_id').orWhereNot({ ambulance_id: ambulanceId })),
  /**
   * A new case, its search text written with it: every field of that text is in `row` but the
   * plate of the ambulance it names (`plate`, null for none), which the caller holds, having
   * just claimed that ambulance; reading the row back to compute it cost two statements a call.
   */
  async insert(db: Db, row: Omit<CaseRow, 'version' | 'created_at' | 'updated_at' | 'closed_at' | 'latitude' | 'longitude' | 'location_accuracy' | 'location_at' | 'assignment_id'>, plate: string | null) {
    const now = nowIso();
    await db('cases').insert({ ...row, version: 1, created_at: now, updated_at: now, search_text: searchTextOf({ ...row, license_plate: plate }) });
  },
  /**
   * Writes `fields`, and the search text when they change it. Given the row as the caller read it
   * in this transaction (`known.before`) and the plate of the ambulance the case names after the
   * write (`known.plate`), the text is computed from those and goes in the same statement; without
   * them the row is read back for it (two statements more).
   */
  async update(db: Db, id: string, fields: CaseFields, known?: { before: CaseRow; plate: string | null }) {
    const searched = SEARCHED.some((f) => f in fields);
    const text = searched && known ? searchTextOf({ ...known.before, ...fields, license_plate: known.plate }) : undefined;
    const search = text !== undefined && text !== known?.before.search_text ? { search_text: text } : {};
    const n = await db('cases').where({ id }).update({ ...fields, ...search, updated_at: nowIso(), version: db.raw('version + 1') });
    if (n && searched && !known) await caseRepository.refreshSearchText(db, { id });
    return n;
  },
  /** Stores the patient's shared position on a case in one of `statuses` (the link policy's); 0 when it is in none. */
  setLocation: (db: Db, id: string, p: { latitude: number; longitude: number; accuracy: number | null; at: string }, statuses: readonly string[]) =>
    db('cases').where({ id }).whereIn('status', [...statuses]).update({
      latitude: p.latitude, longitude: p.longitude, location_accuracy: p.accuracy, location_at: p.at,
      updated_at: p.at, version: db.raw('version + 1'),
    }),
  delete: async (db: Db, id: string) => {
    await db('assignments').where({ case_id: id }).delete();
    await db('cases').where({ id }).delete();
  },
  /** Names the case's current assignment (part of the write that started it: no version of its own). */
  setAssignment: (db: Db, id: string, assignmentId: number) => db('cases').where({ id }).update({ assignment_id: assignmentId }),
  /** Keeps the call's latest request for backup (JSON), a change of the row: a new version. */
  setBackupRequest: (db: Db, id: string, request: string) =>
    db('cases').where({ id }).update({ backup_request: request, updated_at: nowIso(), version: db.raw('version + 1') }),
  /**
   * A new version of the row for a change that lives beside it (its assignment's times), so clients
   * take the event; `closed_at` when the change moves the end of the call with it.
   */
  touch: (db: Db, id: string, fields: { closed_at?: string } = {}) =>
    db('cases').where({ id }).update({ ...fields, updated_at: nowIso(), version: db.raw('version + 1') }),

  /**
   * Of the next `limit` cases closed or resolved before `cutoffIso` (after `after`, in `closed_at`, id order),
   * those that still hold a patient position or an intake location, or whose timeline still holds one;
   * `next` is where the following page starts (null after the last). A page reads at most `limit` cases by the
   * `closed_at` index, so a year of history costs many short reads, never one long one.
   */
  endedBeforeHoldingLocation: async (db: Db, cutoffIso: string, after: EndedKey | null, limit: number, fields: PatientLocationFields): Promise<{ ids: string[]; next: EndedKey | null }> => {
    // By `closed_at` alone (only an ended case has one): with the status in it, the planner took the status index
    // and sorted every ended case for each page.
    const page = await db('cases')
      .select('closed_at', 'id', 'status')
      .where('closed_at', '<', cutoffIso)
      .modify((q) => { if (after) q.whereRaw('(closed_at, id) > (?, ?)', [after.closed_at, after.id]); })
      .orderBy([{ column: 'closed_at' }, { column: 'id' }])
      .limit(limit) as (EndedKey & { status: string })[];
    if (page.length === 0) return { ids: [], next: null };
    // The status is checked here, not in SQL: beside `id in (…)` it made the planner walk the status index instead.
    const ended = page.filter((c) => ENDED.includes(c.status)).map((c) => c.id);
    const ids = ended.length === 0 ? [] : await db('cases')
      .whereIn('id', ended)
      .where((q) => holdingColumns(q, fields.places)
        .orWhereExists(db('case_events').whereRaw('case_events.case_id = cases.id').where({ action: 'location' }).whereNot('after', fields.redactedShare))
        .orWhereExists(holdingIntake(db('case_events').whereRaw('case_events.case_id = cases.id'), fields.editKeys)))
      .pluck('id') as string[];
    const last = page[page.length - 1];
    return { ids, next: page.length < limit ? null : { closed_at: last.closed_at, id: last.id } };
  },
  /**
   * Clears the patient position and the intake location of a case closed or resolved before `cutoffIso`,
   * only while it still holds one (so that of several nodes running this at once, one clears it): 1 when it did, 0 otherwise.
   */
  clearLocationEndedBefore: async (db: Db, id: string, cutoffIso: string, fields: Pick<PatientLocationFields, 'columns' | 'places'>): Promise<number> => {
    const n = await db('cases')
      .where({ id }).whereIn('status', ENDED).where('closed_at', '<', cutoffIso)
      .where((q) => holdingColumns(q, fields.places))
      .update({ ...Object.fromEntries(fields.columns.map((c) => [c, null])), updated_at: nowIso(), version: db.raw('version + 1') });
    if (n) await caseRepository.refreshSearchText(db, { id }); // the intake address is gone from the search too
    return n;
  },
};
