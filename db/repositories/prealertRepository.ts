import { type Db, type PrealertRow, insertedId, nowIso } from './types';

export const prealertRepository = {
  async insert(db: Db, row: Pick<PrealertRow, 'assignment_id' | 'case_id' | 'hospital_id' | 'activation' | 'content' | 'sent_at'>): Promise<number> {
    return insertedId(await db('prealerts').insert(row).returning('id'));
  },
  findById: (db: Db, id: number) => db<PrealertRow>('prealerts').where({ id }).first(),
  /** The latest pre-alert of each of these assignments (a crew may send a corrected one). */
  async latestFor(db: Db, assignmentIds: readonly number[]): Promise<Map<number, PrealertRow>> {
    const byAssignment = new Map<number, PrealertRow>();
    if (!assignmentIds.length) return byAssignment;
    const rows = await db<PrealertRow>('prealerts').whereIn('assignment_id', assignmentIds).orderBy('id');
    for (const r of rows) byAssignment.set(r.assignment_id, r);
    return byAssignment;
  },
  /** Acknowledges once: 1 when this call did, 0 when it was already acknowledged. */
  acknowledge: (db: Db, id: number, at = nowIso()) => db('prealerts').where({ id }).whereNull('acknowledged_at').update({ acknowledged_at: at }),
  /** Pre-alerts sent before `beforeIso` that nobody acknowledged and nobody was told of yet. */
  unacknowledgedBefore: (db: Db, beforeIso: string, max = 100) =>
    db<PrealertRow>('prealerts').whereNull('acknowledged_at').whereNull('ack_alerted_at').where('sent_at', '<', beforeIso).orderBy('sent_at').limit(max),
  /** Marks a late pre-alert as told to the dispatchers: 1 for the one node that did, 0 for any other. */
  markAlerted: (db: Db, id: number, at = nowIso()) => db('prealerts').where({ id }).whereNull('ack_alerted_at').whereNull('acknowledged_at').update({ ack_alerted_at: at }),
  /** Retention: the clinical content of pre-alerts of cases whose location was redacted; the times stay for reports. */
  redactForCases: (db: Db, caseIds: readonly string[], at = nowIso()) =>
    db('prealerts').whereIn('case_id', caseIds).whereNull('redacted_at').update({ content: null, redacted_at: at }),
  /** Retention: up to `limit` cases closed or resolved before `cutoffIso` with a pre-alert whose content is still there. */
  endedCasesHoldingContent: async (db: Db, cutoffIso: string, limit: number): Promise<string[]> =>
    (await db('prealerts as p').join('cases as c', 'c.id', 'p.case_id')
      .whereNull('p.redacted_at').whereIn('c.status', ['closed', 'resolved']).where('c.closed_at', '<', cutoffIso)
      .distinct('p.case_id').orderBy('p.case_id').limit(limit) as { case_id: string }[]).map((r) => r.case_id),
};
