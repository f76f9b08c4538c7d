import { describe, expect, it } from 'vitest';
import { runCrashLoop } from '../../scripts/crash';

/**
 * A short crash loop (5 kill -9 cycles) of scripts/crash.ts; `npm run test:crash` runs 50
 * and more (`-- --cycles N`). The real server runs as a child process on a SQLite file.
 */
describe('kill -9 under a write load', () => {
  it('loses no acknowledged write, doubles no dispatch or e-mail, keeps the file sound and the invariants true', async () => {
    const figures = await runCrashLoop({ cycles: Number(process.env.CRASH_CYCLES ?? 5), log: (line) => console.info(line) });
    expect(figures.violations).toEqual([]);
    expect(figures.kills).toBe(figures.cycles);
    expect(figures.integrityChecks).toBeGreaterThan(0);
    expect(figures.acknowledged).toBeGreaterThan(0);
    expect(figures.verified).toBe(figures.acknowledged);
    expect(figures.mailsDelivered).toBeGreaterThanOrEqual(figures.mailsQueued);
  }, 240_000);
});
