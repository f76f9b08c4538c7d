import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { SET_STORE_STATEMENTS } from '../../../db/repositories/positionSetStore';
import { casePayload, dispatchCase, trackingTokens } from '../../testing/dispatchHelpers';
import { type Statement, requestStatements } from '../../testing/statements';
import { testEngine } from '../../testing/testEngine';
import { useTestServer } from '../../testing/testServer';

/**
 * Every statement on the hot paths (the board, a tracking page's poll, suggestions, creating, dispatching and
 * closing a call, a batch of positions) can use an index on PostgreSQL for each table that grows with history.
 * The test data is small, so the planner would scan anyway; with sequential scans priced out
 * (`enable_seqscan = off`) a scan that is still in the plan is one that no index can replace: the statement
 * would read the whole table on its 365th day.
 */
const GROWS = new Set(['cases', 'assignments', 'ambulance_positions', 'case_events', 'outbox', 'prealerts', 'idempotency_keys', 'sessions', 'track_tokens', 'signin_codes', 'signin_challenges', 'geocode_cache', 'geocode_searches']);

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] }
const scansOf = (n: PlanNode): string[] => [
  ...(n['Node Type'] === 'Seq Scan' && n['Relation Name'] && GROWS.has(n['Relation Name']) ? [n['Relation Name']] : []),
  ...(n.Plans ?? []).flatMap(scansOf),
];

const ROLL_BACK = new Error('planned only');
type PgConn = { query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };

/** The tables a statement would read whole, planned in a transaction that is rolled back (an EXPLAIN of a write does not run it). */
async function fullScans(db: Knex, sql: string, bindings: readonly unknown[]): Promise<string[]> {
  const found: string[] = [];
  await db.transaction(async (trx) => {
    const conn = await (trx.client as unknown as { acquireConnection(): Promise<PgConn> }).acquireConnection();
    await conn.query('set local enable_seqscan = off');
    const { rows } = await conn.query(`explain (format json) ${sql}`, [...bindings]);
    const plan = (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
    found.push(...scansOf(plan));
    throw ROLL_BACK;
  }).catch((err: unknown) => { if (err !== ROLL_BACK) throw err; });
  return found;
}

const explainable = (q: Statement) => /^\s*(select|update|delete|insert|with)\b/i.test(q.sql);

describe.runIf(testEngine() === 'postgres')('PostgreSQL: the hot paths use indexes on every table that grows', () => {
  const s = useTestServer();
  let operator: string;
  let caseId: string;
  let viewer: string;
  let driver: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    caseId = await dispatchCase(s, operator, 1);
    ({ viewer, driver } = await trackingTokens(s, operator, caseId, 1));
  });

  const expectIndexed = async (what: string, act: () => Promise<{ status: number }>) => {
    const sql = await requestStatements(s.ctx.db, async () => { expect((await act()).status, what).toBeLessThan(300); });
    expect(sql.length, what).toBeGreaterThan(0);
    const scans: string[] = [];
    for (const q of sql.filter(explainable)) for (const table of await fullScans(s.ctx.db, q.sql, q.bindings)) scans.push(`${table}: ${q.sql}`);
    expect(scans, what).toEqual([]);
  };

  it('the board and the fleet screen', async () => {
    await expectIndexed('GET /api/cases', () => s.api('GET', '/api/cases', { token: operator }));
    await expectIndexed('GET /api/ambulances', () => s.api('GET', '/api/ambulances', { token: operator }));
  });

  it("a tracking page's poll", async () => {
    await expectIndexed('GET /api/track', () => s.api('GET', `/api/track/1?t=${encodeURIComponent(viewer)}`));
  });

  it("a crew's position (its link's checks; the batch's own statements are planned below)", async () => {
    await expectIndexed('POST position', () => s.api('POST', `/api/ambulances/1/position?t=${encodeURIComponent(driver)}`, { body: { latitude: 17.41, longitude: 78.41 } }));
  });

  it('suggestions for a place and for a call', async () => {
    await expectIndexed('suggestions at a place', () => s.api('GET', '/api/dispatch/suggestions?latitude=17.4&longitude=78.4', { token: operator }));
    await expectIndexed('suggestions for a call', () => s.api('GET', `/api/dispatch/suggestions?case_id=${caseId}`, { token: operator }));
  });

  it('a call created waiting, dispatched, and closed', async () => {
    let id = '';
    await expectIndexed('POST /api/cases', async () => {
      const res = await s.api('POST', '/api/cases', { token: operator, body: casePayload(undefined, { status: 'pending', priority: 2 }) });
      id = (res.body as { case: { id: string } }).case.id;
      return res;
    });
    await expectIndexed('POST /api/cases/{id}/dispatch', () => s.api('POST', `/api/cases/${id}/dispatch`, { token: operator, body: { ambulance_id: 3 } }));
    await expectIndexed('PUT /api/cases/{id} closed', () => s.api('PUT', `/api/cases/${id}`, { token: operator, body: { status: 'closed' } }));
  });

  it("the position writer's batch statements", async () => {
    const at = new Date().toISOString();
    const samples: Record<keyof typeof SET_STORE_STATEMENTS, unknown[]> = {
      lockAndRead: [[1, 2]],
      lockFreeAndRead: [[1, 2]],
      existing: [[1, 2]],
      drives: [[1, 2]],
      reporting: [[1, 2], at],
      storedFixes: [[1, 2], [at, at]],
      insert: [[1], [17.4], [78.4], [null], [null], [null], [at], [at], ['driver'], [null]],
      setLatest: [[1], [17.4], [78.4], [null], [null], [null], [at], [null], ['driver'], [null], at],
    };
    const scans: string[] = [];
    for (const [name, q] of Object.entries(SET_STORE_STATEMENTS)) {
      for (const table of await fullScans(s.ctx.db, q.text, samples[name as keyof typeof SET_STORE_STATEMENTS])) scans.push(`${table}: ${q.name}`);
    }
    expect(scans).toEqual([]);
  });
});
