import { describe, expect, it } from 'vitest';
import { firstPage, outboxQueryOf, parseOutboxSearch, turnPage } from './outboxSearch';

const answer = { next_cursor: 'N', prev_cursor: 'P' };

describe('the outbox\'s search params', () => {
  it('keeps a status, page size and page with its cursor', () => {
    expect(parseOutboxSearch({ status: 'failed', limit: 50, cursor: 'abc', page: 2 })).toEqual({ status: 'failed', limit: 50, cursor: 'abc', page: 2 });
    expect(parseOutboxSearch({ limit: '100' })).toEqual({ limit: 100 });
  });

  it('is empty at the defaults: every status, 25 a page, the first page', () => {
    expect(parseOutboxSearch({})).toEqual({});
    expect(parseOutboxSearch({ limit: 25 })).toEqual({});
    expect(parseOutboxSearch({ page: 3 })).toEqual({});
  });

  it('drops garbage field by field, keeping what is right', () => {
    expect(parseOutboxSearch({ status: 'lost', limit: 500, cursor: 'c', page: -2 })).toEqual({ cursor: 'c', page: 1 });
    expect(parseOutboxSearch({ status: { a: 1 }, limit: 'ten', cursor: 'x'.repeat(401) })).toEqual({});
    expect(parseOutboxSearch({ status: 'sent', limit: [50], other: 'y' })).toEqual({ status: 'sent' });
  });

  it('reads back as text a cursor the router parsed as JSON', () => {
    expect(parseOutboxSearch({ cursor: 42, page: 1 })).toEqual({ cursor: '42', page: 1 });
  });

  it('overrides every refused param: the router lays the validated search over the raw one', () => {
    const raw = { status: 'lost', limit: 500, page: 'x' };
    expect({ ...raw, ...parseOutboxSearch(raw) }).toEqual({});
    expect({ ...raw, ...parseOutboxSearch({ ...raw, limit: 25 }) }).toEqual({});
  });
});

describe('outbox paging', () => {
  it('steps forward and back by the answer\'s cursors, one page at a time', () => {
    const second = turnPage(firstPage('sent', 50), 1, { next_cursor: 'N', prev_cursor: null });
    expect(second).toEqual({ status: 'sent', limit: 50, page: 1, cursor: 'N' });
    expect(turnPage({ ...second, page: 2 }, 1, answer)).toEqual({ status: 'sent', limit: 50, page: 1, cursor: 'P' });
  });

  it('reaches the first page without a cursor (the newest mail), and stays put past the last page', () => {
    expect(turnPage({ page: 1, cursor: 'N' }, 0, answer)).toEqual({});
    expect(turnPage({ limit: 50, page: 3, cursor: 'X' }, 2, { next_cursor: 'N', prev_cursor: null })).toEqual({ limit: 50 });
    const last = { page: 3, cursor: 'X' };
    expect(turnPage(last, 4, { next_cursor: null, prev_cursor: 'P' })).toBe(last);
  });

  it('writes no default into the URL', () => {
    expect(firstPage(undefined, 25)).toEqual({});
    expect(firstPage('queued', 100)).toEqual({ status: 'queued', limit: 100 });
  });

  it('asks for only what differs from the server\'s defaults', () => {
    expect(outboxQueryOf(firstPage(undefined, 25))).toEqual({});
    expect(outboxQueryOf({ status: 'failed', limit: 100, page: 1, cursor: 'C' })).toEqual({ status: 'failed', limit: 100, cursor: 'C' });
  });
});
