import { describe, expect, it } from 'vitest';
import { firstPage, outboxQueryOf, turnPage } from './outboxPaging';

const answer = { next_cursor: 'N', prev_cursor: 'P' };

describe('outbox paging', () => {
  it('steps forward and back by the answer\'s cursors, one page at a time', () => {
    const second = turnPage(firstPage('sent', 50), 1, { next_cursor: 'N', prev_cursor: null });
    expect(second).toEqual({ status: 'sent', limit: 50, page: 1, cursor: 'N' });
    expect(turnPage({ ...second, page: 2 }, 1, answer)).toEqual({ status: 'sent', limit: 50, page: 1, cursor: 'P' });
  });

  it('reaches the first page without a cursor (the newest mail), and stays put past the last page', () => {
    expect(turnPage({ limit: 25, page: 1, cursor: 'N' }, 0, answer)).toEqual({ limit: 25, page: 0, status: undefined });
    expect(turnPage({ limit: 25, page: 3, cursor: 'X' }, 2, { next_cursor: 'N', prev_cursor: null })).toEqual({ limit: 25, page: 0, status: undefined });
    const last = { limit: 25, page: 3, cursor: 'X' };
    expect(turnPage(last, 4, { next_cursor: null, prev_cursor: 'P' })).toBe(last);
  });

  it('asks for only what differs from the server\'s defaults', () => {
    expect(outboxQueryOf(firstPage(undefined, 25))).toEqual({ status: undefined, limit: undefined, cursor: undefined });
    expect(outboxQueryOf({ status: 'failed', limit: 100, page: 1, cursor: 'C' })).toEqual({ status: 'failed', limit: 100, cursor: 'C' });
  });
});
