import { describe, expect, it } from 'vitest';
import { TRAIL_MAX_POINTS, TRAIL_WINDOW_MS, recentTrail } from './trail';

const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const point = (msAgo: number, latitude = 1) => ({ latitude, longitude: 2, recorded_at: new Date(NOW - msAgo).toISOString() });

describe('recentTrail', () => {
  it('keeps the window before the newest point, its first instant included', () => {
    const trail = [point(TRAIL_WINDOW_MS + 1), point(TRAIL_WINDOW_MS), point(60_000), point(0)];
    expect(recentTrail(trail)).toEqual(trail.slice(1));
  });

  it('keeps at most the point limit, the newest ones', () => {
    const trail = Array.from({ length: TRAIL_MAX_POINTS + 5 }, (_, i) => point(TRAIL_MAX_POINTS + 5 - i, i));
    const kept = recentTrail(trail);
    expect(kept).toHaveLength(TRAIL_MAX_POINTS);
    expect(kept[0].latitude).toBe(5);
    expect(kept.at(-1)).toBe(trail.at(-1));
  });

  it('leaves an empty trail empty', () => {
    expect(recentTrail([])).toEqual([]);
  });
});
