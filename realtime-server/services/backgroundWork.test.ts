import { describe, expect, it } from 'vitest';
import { asBackground, backgroundJob, markBackgroundWork } from './backgroundWork';

// Its own test file, so its own process: no test server has turned the mark on here.
describe('the background-work mark', () => {
  it('is off until turned on (production pays no promise hooks), then follows a pass through its awaits', async () => {
    const seen = async () => { await Promise.resolve(); await new Promise((r) => setImmediate(r)); return backgroundJob(); };
    expect(await asBackground('outbox', seen)).toBeUndefined();
    markBackgroundWork();
    expect(await asBackground('outbox', seen)).toBe('outbox');
    expect(await seen()).toBeUndefined();
  });
});
