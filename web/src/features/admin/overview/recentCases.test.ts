import { describe, expect, it } from 'vitest';
import type { CaseDto } from '../../../api/contract';
import { recentCasesOf } from './useOverviewData';

const row = (id: string, minutesAgo: number, version = 1, status: CaseDto['status'] = 'closed') =>
  ({ id, version, status, created_at: new Date(Date.parse('2026-11-27T12:00:00Z') - minutesAgo * 60_000).toISOString() }) as CaseDto;

describe('the admin overview Recent Cases', () => {
  it('are the newest five of the history page and the live board, each at its latest version', () => {
    const page = [row('h1', 30), row('h2', 40), row('b1', 50, 1), row('h3', 60), row('h4', 70)];
    const board = [row('b2', 5, 1, 'pending'), row('b1', 50, 3, 'active'), row('b3', 600, 1, 'active')];
    const recent = recentCasesOf(board, page);
    expect(recent.map((c) => c.id)).toEqual(['b2', 'h1', 'h2', 'b1', 'h3']);
    expect(recent.find((c) => c.id === 'b1')!.version).toBe(3);
  });
  it('fall back to the board alone while the page is unknown', () => {
    expect(recentCasesOf([row('a', 9), row('b', 1)], undefined).map((c) => c.id)).toEqual(['b', 'a']);
  });
});
