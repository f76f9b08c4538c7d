import { describe, expect, it } from 'vitest';
import { bench } from './benchRun.testing';

const PG = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined;
const REDIS = process.env.REDIS_URL;
const reason = !PG ? 'DATABASE_URL is not postgres://' : !REDIS ? 'REDIS_URL is not set' : undefined;
if (reason) console.warn(`[bench smoke] skipped: npm run bench -- --scenarios national (${reason})`);

/** The harness (not the figures): one tiny round on each deployment, every figure aggregated per deployment. */
describe.skipIf(!!reason)('npm run bench -- --scenarios national (smoke, SQLite and PostgreSQL + Redis)', () => {
  it('runs SQLite, one node and three nodes in one invocation and sets their figures side by side', async () => {
    const { r, text } = await bench(['--scenarios', 'national', '--repeat', '1', '--smoke', '--ambulances', '6', '--viewers', '24', '--staff', '3',
      '--dispatchers', '1', '--load-procs', '1', '--database-url', PG!, '--redis-url', REDIS!]);
    expect(Object.keys(r.runs)).toEqual(['sqlite', 'pg1', 'pg3']);
    expect(r.runs.sqlite[0]).toMatchObject({ engine: 'sqlite', ambulances: 6, viewers: 24 });
    expect(r.runs.pg1[0]).toMatchObject({ engine: 'postgres+redis', nodes: 1 });
    expect(r.runs.pg3[0]).toMatchObject({ engine: 'postgres+redis', nodes: 3 });
    for (const k of ['sqlite', 'pg1', 'pg3']) {
      expect(r.figures[k].lost, k).toMatchObject({ median: 0, n: 1 });
      expect(r.figures[k].fanout_p99_ms.n, k).toBe(1);
      expect(r.figures[k].dispatch_calls.median, k).toBeGreaterThan(0);
    }
    expect(text).toMatch(/calls a day at that rate \(30,000 wanted\)/);
  }, 240_000);
});
