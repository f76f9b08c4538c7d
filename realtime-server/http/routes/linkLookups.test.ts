import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchCase, trackingTokens } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { requestStatements } from '../../testing/statements';

/**
 * A link's token is looked up once per request on the hottest requests there are (a device's
 * positions, a tracking page's polls): the link limit and the route share the grant. Counted in
 * statements, not time: the look-up once ran twice because a memoised Knex builder runs its query
 * again on every await (db/repositories/types.ts `fetched`).
 */
describe('one token look-up per link request', () => {
  const s = useTestServer();
  let driver: string;
  let viewer: string;
  beforeAll(async () => {
    const operator = await s.signIn('operator');
    const caseId = await dispatchCase(s, operator, 1);
    ({ viewer, driver } = await trackingTokens(s, operator, caseId, 1));
  });

  async function tokenLookups(request: () => Promise<{ status: number }>): Promise<number> {
    const sql = await requestStatements(s.ctx.db, async () => expect((await request()).status).toBe(200));
    return sql.filter((q) => q.sql.includes('track_tokens')).length;
  }

  it("a driver link's REST position", async () => {
    let lat = 17.5;
    const send = () => s.api('POST', `/api/ambulances/1/position?t=${encodeURIComponent(driver)}`, { body: { latitude: (lat += 0.001), longitude: 78.5 } });
    expect(await tokenLookups(send)).toBe(1);
    expect(await tokenLookups(send)).toBe(1);
  });

  it("a driver link's unit status", async () => {
    expect(await tokenLookups(() => s.api('POST', `/api/ambulances/1/unit-status?t=${encodeURIComponent(driver)}`, { body: { status: 'en_route' } }))).toBe(1);
  });

  it("a tracking page's poll, by the viewer and by the driver", async () => {
    expect(await tokenLookups(() => s.api('GET', `/api/track/1?t=${encodeURIComponent(viewer)}`))).toBe(1);
    expect(await tokenLookups(() => s.api('GET', `/api/track/1?t=${encodeURIComponent(driver)}`))).toBe(1);
  });
});
