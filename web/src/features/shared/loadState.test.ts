import { describe, expect, it } from 'vitest';
import { judgeLoad, staleText } from './loadState';

const ok = (at = 1000) => ({ hasData: true, failure: null, dataUpdatedAt: at });
const pending = { hasData: false, failure: null, dataUpdatedAt: 0 };
const failedNoData = { hasData: false, failure: new Error('x'), dataUpdatedAt: 0 };

describe('judgeLoad: unknown is never shown as zero', () => {
  it('is loading until every list has answered', () => {
    expect(judgeLoad([ok(), pending], true).phase).toBe('loading');
  });
  it('fails as soon as a list without data has a failed attempt, naming which', () => {
    expect(judgeLoad([ok(), failedNoData, pending], true)).toEqual({ phase: 'failed', failed: [1], stale: null });
  });
  it('keeps data that fails to refresh, marked stale since the oldest fetch', () => {
    expect(judgeLoad([ok(2000), { ...ok(5000), failure: new Error('x') }], true)).toEqual({
      phase: 'loaded', failed: [], stale: { reason: 'refresh-failed', since: 2000 },
    });
  });
  it('marks data stale while the live socket is down', () => {
    expect(judgeLoad([ok(3000)], false).stale).toEqual({ reason: 'offline', since: 3000 });
  });
  it('is plainly loaded when everything answered and the socket is live', () => {
    expect(judgeLoad([ok(), ok()], true)).toEqual({ phase: 'loaded', failed: [], stale: null });
  });
});

describe('staleText', () => {
  it('says from when and that it may be out of date', () => {
    const at = new Date(2024, 0, 1, 14, 2).getTime();
    expect(staleText('refresh-failed', at, 'en-GB')).toBe('Could not refresh. Showing data from 14:02 — may be out of date.');
    expect(staleText('offline', at, 'en-GB')).toMatch(/^Live updates are paused\. Showing data from 14:02/);
  });
});
