import { beforeAll, describe, expect, it } from 'vitest';
import { type SearchFields, searchTextOf } from '../../../db/repositories/caseSearchText';
import { casePayload, dispatchCase, trackingTokens } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { type Statement, requestStatements } from '../../testing/statements';
import { testEngine } from '../../testing/testEngine';

/** A write's row locks (`select … for update`) are statements of their own on PostgreSQL; SQLite has none (caseRepository.lock). */
const locks = (n: number) => (testEngine() === 'postgres' ? n : 0);
const SIGNED_IN_LOOKUP = /^select \* from [`"](sessions[`"] where [`"]token_hash|users[`"] where [`"]id[`"] = \S+ and [`"]active)[`"]/;

/**
 * What each request of the bench's dispatch and polling scenarios costs in SQL statements
 * (BEGIN and COMMIT included), counted rather than timed: the count is deterministic, and a
 * statement more on these paths is a regression (docs/profiles-dispatch-polling.md lists them).
 * The bench's dispatcher creates a call without a unit and closes it (scripts/bench/load.ts);
 * its tracking pages poll /api/track and its fleet screen /api/ambulances and /api/cases.
 */
describe('statements per request on the dispatch and polling paths', () => {
  const s = useTestServer();
  let operator: string;
  let viewer: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    const caseId = await dispatchCase(s, operator, 1);
    ({ viewer } = await trackingTokens(s, operator, caseId, 1));
  });

  /**
   * The request's statements but a staff token's look-up (its session, then its user: sessionRepository.findLive),
   * which runs at most once a second per token (principalCache.ts), so whether it lands in the window is a matter of time.
   */
  async function statements(request: () => Promise<{ status: number; body: unknown }>, status = 200): Promise<{ sql: Statement[]; body: any }> {
    let body: unknown;
    const sql = await requestStatements(s.ctx.db, async () => {
      const res = await request();
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      body = res.body;
    });
    return { sql: sql.filter((q) => !SIGNED_IN_LOOKUP.test(q.sql)), body };
  }
  const call = (extra: Record<string, unknown> = {}) => s.api('POST', '/api/cases', { token: operator, body: casePayload(undefined, { to: 'bench-patient@example.com', ...extra }) });

  it('a call taken without a unit, then closed, as the bench dispatcher does', async () => {
    const created = await statements(call, 201);
    expect(created.sql.length).toBe(5);
    const closed = await statements(() => s.api('PUT', `/api/cases/${created.body.case.id}`, { token: operator, body: { status: 'closed' } }));
    expect(closed.sql.length).toBe(6 + locks(1));
  });

  it('a waiting call dispatched a free unit', async () => {
    const waiting = (await call({ status: 'pending' })).body.case.id;
    const { sql } = await statements(() => s.api('POST', `/api/cases/${waiting}/dispatch`, { token: operator, body: { ambulance_id: 3 } }));
    expect(sql.length).toBe(17 + locks(1));
  });

  it('a waiting call given a unit by an edit', async () => {
    const waiting = (await call({ status: 'pending' })).body.case.id;
    const { sql } = await statements(() => s.api('PUT', `/api/cases/${waiting}`, { token: operator, body: { status: 'active', ambulance_id: 6 } }));
    expect(sql.length).toBe(17 + locks(1));
  });

  // The writes above compute a case's search text from the fields in hand instead of reading the row back: it must be the row's.
  it('leaves every search text as the stored row gives it, through a create with a unit, a close, a dispatch and a diversion', async () => {
    const fresh = async (step: string) => {
      const rows = await s.ctx.db<SearchFields & { search_text: string }>('cases').leftJoin('ambulances', 'ambulances.id', 'cases.ambulance_id')
        .select('cases.id', 'cases.description', 'cases.status', 'cases.patient_name', 'cases.patient_email', 'cases.intake_address', 'cases.search_text', 'ambulances.license_plate');
      for (const r of rows) expect(r.search_text, `${step}: ${r.id}`).toBe(searchTextOf(r));
    };
    const ok = async (step: string, res: Promise<{ status: number; body: any }>) => {
      expect((await res).status, step).toBeLessThan(300);
      await fresh(step);
      return (await res).body;
    };
    const low = (await ok('created with a unit', call({ license_plate: 4, priority: 4, intake: { latitude: 17.4, longitude: 78.4, address: '12 Lake Road', source: 'caller' } }))).case.id;
    const urgent = (await ok('created waiting', call({ status: 'pending', priority: 1 }))).case.id;
    await ok('diverted', s.api('POST', `/api/cases/${urgent}/dispatch`, { token: operator, body: { ambulance_id: 4, take_from_case_id: low } }));
    await ok('closed and renamed', s.api('PUT', `/api/cases/${urgent}`, { token: operator, body: { status: 'closed', patientName: 'Ana Ärlig' } }));
    await ok('given its unit back', s.api('PUT', `/api/cases/${low}`, { token: operator, body: { status: 'active', ambulance_id: 4 } }));
    await ok('another unit named', s.api('PUT', `/api/cases/${low}`, { token: operator, body: { ambulance_id: 5 } }));
    await ok('a unit named on an ended call', s.api('PUT', `/api/cases/${urgent}`, { token: operator, body: { ambulance_id: 2 } }));
  });

  it("a tracking page's poll", async () => {
    const poll = () => s.api('GET', `/api/track/1?t=${encodeURIComponent(viewer)}`);
    await poll(); // the ETA model is read once and kept (dispatchSuggestions.ts etaModel)
    const { sql } = await statements(poll);
    // Its grant, its ambulance, its case, its trail.
    expect(sql.length).toBe(4);
  });

  it("the fleet screen's polls", async () => {
    expect((await statements(() => s.api('GET', '/api/ambulances', { token: operator }))).sql.length).toBe(1);
    // No case on the board holds a patient's position here: with one, its view is recorded (caseService recordLocationViews).
    // Its open calls, the calls that ended lately, how many cases are stored.
    expect((await statements(() => s.api('GET', '/api/cases', { token: operator }))).sql.length).toBe(3);
  });
});
