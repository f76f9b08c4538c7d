import { describe, expect, it } from 'vitest';
import { type DemandReport, localDate } from '../../api/contract';
import { useTestServer } from '../../../../realtime-server/testing/testServer';
import { addDays } from './reportPeriod';
import { reportsScreenQueries, sumDemand } from './reportsScreenQueries';

const keyOf = (q: { queryKey: readonly unknown[] }) => q.queryKey.slice(1).join(' ');

describe("the Reports screen's queries", () => {
  it('asks for demand as past days and today when the period has both, whole otherwise', () => {
    const today = '2026-11-24';
    expect(reportsScreenQueries({ from: '2026-10-26', to: '2026-11-25', tz: 'UTC' }, today).demand.map(keyOf))
      .toEqual(['demand 2026-10-26 2026-11-24 UTC', 'demand 2026-11-24 2026-11-25 UTC']);
    for (const p of [{ from: '2026-10-01', to: '2026-11-01' }, { from: '2026-11-24', to: '2026-11-25' }, { from: '2026-10-01', to: '2026-11-24' }]) {
      expect(reportsScreenQueries({ ...p, tz: 'UTC' }, today).demand.map(keyOf)).toEqual([`demand ${p.from} ${p.to} UTC`]);
    }
    // Percentiles and a deleted unit's time on shift do not add up: always the whole period.
    const q = reportsScreenQueries({ from: '2026-10-26', to: '2026-11-25', tz: 'UTC' }, today);
    expect([keyOf(q.responseTimes), keyOf(q.utilisation), keyOf(q.handover)])
      .toEqual(['response-times 2026-10-26 2026-11-25 UTC', 'utilisation 2026-10-26 2026-11-25 UTC', 'handover 2026-10-26 2026-11-25 UTC']);
  });

  describe('against the server (a month of demo history)', () => {
    const server = useTestServer({ env: { DEMO_HISTORY_DAYS: '30' } });

    it("adds the parts' demand up to exactly the whole period's, in any zone, daylight-saving change included", async () => {
      const token = await server.signIn('operator');
      const demand = async (p: { from: string; to: string; tz: string }) => {
        const res = await server.api<DemandReport>('GET', `/api/reports/demand?${new URLSearchParams(p)}`, { token });
        expect(res.status).toBe(200);
        return res.body;
      };
      // New York left summer time within the month (1 Nov 2026); a split at today's midnight and at one in the past.
      for (const tz of ['UTC', 'Asia/Kolkata', 'America/New_York']) {
        const today = localDate(Date.now(), tz);
        const period = { from: addDays(today, -40), to: addDays(today, 1), tz };
        const whole = await demand(period);
        expect(whole.counts.flat().reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
        for (const at of [today, addDays(today, -20)]) {
          const parts = reportsScreenQueries(period, at).demand.map((q) => ({ from: q.queryKey[2] as string, to: q.queryKey[3] as string, tz }));
          expect(parts).toHaveLength(2);
          expect(sumDemand(period, await Promise.all(parts.map(demand)))).toEqual(whole);
        }
      }
    });
  });
});
