import { describe, expect, it, vi } from 'vitest';

describe('the background-work mark', () => {
  it('is off until turned on (production pays no promise hooks), then follows a pass through its awaits', async () => {
    // A fresh copy of the module, as a server process loads it: test files share a worker's modules
    // (vitest.config.ts, isolate: false), and a test server in an earlier file has turned the mark on.
    vi.resetModules();
    const { asBackground, backgroundJob, markBackgroundWork } = await import('./backgroundWork');
    const seen = async () => { await Promise.resolve(); await new Promise((r) => setImmediate(r)); return backgroundJob(); };
    expect(await asBackground('outbox', seen)).toBeUndefined();
    markBackgroundWork();
    expect(await asBackground('outbox', seen)).toBe('outbox');
    expect(await seen()).toBeUndefined();
  });
});
