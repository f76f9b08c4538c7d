import { beforeAll, describe, expect, it } from 'vitest';
import { casePayload, dispatchCase, trackingTokens } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { type Statement, requestStatements } from '../../testing/statements';
import { testEngine } from '../../testing/testEngine';

/** A write's row locks (`select … for update`) are statements of their own on PostgreSQL; SQLite has none (caseRepository.lock). */
const locks = (n: number) => (testEngine() === 'postgres' ? n : 0);

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

  async function statements(request: () => Promise<{ status: number; body: unknown }>, status = 200): Promise<{ sql: Statement[]; body: any }> {
    let body: unknown;
    const sql = await requestStatements(s.ctx.db, async () => {
      const res = await request();
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      body = res.body;
    });
    return { sql, body };
  }
  const call = (extra: Record<string, unknown> = {}) => s.api('POST', '/api/cases', { token: operator, body: casePayload(undefined, { to: 'bench-patient@example.com', ...extra }) });

  it('a call taken without a unit, then closed, as the bench dispatcher does', async () => {
    const created = await statements(call, 201);
    expect(created.sql.length).toBe(5);
    const closed = await statements(() => s.api('PUT', `/api/cases/${created.body.case.id}`, { token: operator, body: { status: 'closed' } }));
    expect(closed.sql.length).toBe(8 + locks(1));
  });

  it('a waiting call dispatched a free unit', async () => {
    const waiting = (await call({ status: 'pending' })).body.case.id;
    const { sql } = await statements(() => s.api('POST', `/api/cases/${waiting}/dispatch`, { token: operator, body: { ambulance_id: 3 } }));
    expect(sql.length).toBe(20 + locks(1));
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
    expect((await statements(() => s.api('GET', '/api/cases', { token: operator }))).sql.length).toBe(4);
  });
});
