import { type SearchFields, searchTextOf } from './caseSearchText';
import type { Db } from './types';

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits at ~20 columns. */
const CHUNK = 500;

/** Bulk writes of the generated demo history (db/seeds/demoHistory.ts), a few statements for thousands of rows. */
export const demoHistoryRepository = {
  /**
   * The cases, their assignments (one or more per case, in dispatch order) and their timeline
   * entries; then each case names its primary assignment, found by case id since the ids are the
   * database's: on a call that is over (every demo call), contract primaryAssignment's last one
   * that conveyed the patient, else the last one (by id, the order they were inserted in). Last the
   * pre-alerts, each of the assignment of its case and ambulance (a unit is on a call once).
   */
  async insert(db: Db, h: {
    cases: (SearchFields & { ambulance_id?: number | null })[]; assignments: object[]; events: object[];
    prealerts?: ({ case_id: string; ambulance_id: number } & object)[];
  }) {
    // Each case's search text (caseSearchText.ts) as the case repository would write it, with its ambulance's plate.
    const ambulances: { id: number; license_plate: string }[] = await db('ambulances').select('id', 'license_plate');
    const plates = new Map(ambulances.map((a) => [a.id, a.license_plate]));
    const cases = h.cases.map((c) => ({ ...c, search_text: searchTextOf({ ...c, license_plate: c.ambulance_id != null ? plates.get(c.ambulance_id) : null }) }));
    for (const [table, rows] of [['cases', cases], ['assignments', h.assignments], ['case_events', h.events]] as const) {
      for (let i = 0; i < rows.length; i += CHUNK) await db(table).insert(rows.slice(i, i + CHUNK));
    }
    await db('cases').where('demo', true).whereNull('assignment_id').update({
      assignment_id: db.raw(
        'coalesce((select max(a.id) from assignments a where a.case_id = cases.id and a.status = ? and a.transporting_at is not null), '
        + '(select max(a.id) from assignments a where a.case_id = cases.id))',
        ['cleared'],
      ),
    });
    const prealerts = h.prealerts ?? [];
    if (!prealerts.length) return;
    const assignmentIds = new Map<string, number>();
    const caseIds = [...new Set(prealerts.map((p) => p.case_id))];
    for (let i = 0; i < caseIds.length; i += CHUNK) {
      const rows: { id: number; case_id: string; ambulance_id: number }[] = await db('assignments').whereIn('case_id', caseIds.slice(i, i + CHUNK)).select('id', 'case_id', 'ambulance_id');
      for (const r of rows) assignmentIds.set(`${r.case_id} ${Number(r.ambulance_id)}`, Number(r.id));
    }
    const rows = prealerts.map(({ ambulance_id: ambulanceId, ...p }) => ({ ...p, assignment_id: assignmentIds.get(`${p.case_id} ${ambulanceId}`) }));
    for (let i = 0; i < rows.length; i += CHUNK) await db('prealerts').insert(rows.slice(i, i + CHUNK));
  },
  count: async (db: Db) => Number((await db('cases').where('demo', true).count({ n: '*' }).first())?.n ?? 0),
};
