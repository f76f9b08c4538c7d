import { describe, expect, it } from 'vitest';
import { historyQueryOf, parseCasesScreenSearch, parseHistorySearch, withPage, withQuery } from './historySearch';

describe('a history screen\'s search params', () => {
  it('keeps every field the API accepts, page number with its cursor', () => {
    expect(parseHistorySearch({ q: ' smith ', status: 'closed', priority: '2', from: '2026-11-01', to: '2026-11-02', order: 'asc', limit: 50, cursor: 'abc', page: 3 }))
      .toEqual({ q: 'smith', status: 'closed', priority: 2, from: '2026-11-01', to: '2026-11-02', order: 'asc', limit: 50, cursor: 'abc', page: 3 });
  });

  it('is empty for no params, and an empty search is no search', () => {
    expect(parseHistorySearch({})).toEqual({});
    expect(parseHistorySearch({ q: '   ' })).toEqual({});
  });

  it('drops only the fields the schema refuses', () => {
    expect(parseHistorySearch({ q: 'ann', status: 'lost', priority: 7, order: 'sideways', limit: 500, from: 'yesterday' })).toEqual({ q: 'ann' });
  });

  it('reads back as text what the router parsed as JSON (an id prefix of digits)', () => {
    expect(parseHistorySearch({ q: 12345678 })).toEqual({ q: '12345678' });
    expect(parseHistorySearch({ cursor: 42, page: 2 })).toEqual({ cursor: '42', page: 2 });
  });

  it('leaves the default page size out of the URL', () => {
    expect(parseHistorySearch({ limit: 25 })).toEqual({});
    expect(parseHistorySearch({ limit: '100' })).toEqual({ limit: 100 });
  });

  it('has a page number only with a cursor; a cursor without a sane one is the second page', () => {
    expect(parseHistorySearch({ page: 4 })).toEqual({});
    expect(parseHistorySearch({ cursor: 'c', page: 0 })).toEqual({ cursor: 'c', page: 1 });
    expect(parseHistorySearch({ cursor: 'c', page: 'x' })).toEqual({ cursor: 'c', page: 1 });
    expect(parseHistorySearch({ cursor: 'c', page: 1.5 })).toEqual({ cursor: 'c', page: 1 });
  });

  it('ignores params of no history field', () => {
    expect(parseHistorySearch({ scope: 'all', tab: 'all', other: 1 })).toEqual({});
  });

  it('knows the cases screen\'s tab: All Cases, else the board', () => {
    expect(parseCasesScreenSearch({ tab: 'all', q: 'x' })).toEqual({ tab: 'all', q: 'x' });
    expect(parseCasesScreenSearch({ tab: 'emergency' })).toEqual({});
    expect(parseCasesScreenSearch({ tab: 'nope' })).toEqual({});
  });

  it('overrides every refused param: the router lays the validated search over the raw one', () => {
    const raw = { tab: 'nope', status: 'lost', priority: 7, limit: 25, page: 3 };
    expect({ ...raw, ...parseCasesScreenSearch(raw) }).toEqual({});
  });
});

describe('moving through history', () => {
  const onPage3 = { tab: 'all' as const, q: 'ann', order: 'asc' as const, cursor: 'c3', page: 2 };

  it('asks the server for the query only (no tab, no page number)', () => {
    expect(historyQueryOf(onPage3)).toEqual({ q: 'ann', order: 'asc', cursor: 'c3' });
  });

  it('starts a new search, order or page size on the first page', () => {
    expect(withQuery(onPage3, { q: ' bob ' })).toEqual({ tab: 'all', q: 'bob', order: 'asc' });
    expect(withQuery(onPage3, { q: '' })).toEqual({ tab: 'all', order: 'asc' });
    expect(withQuery(onPage3, { order: 'desc' })).toEqual({ tab: 'all', q: 'ann', order: 'desc' });
    expect(withQuery(onPage3, { limit: 50 })).toEqual({ tab: 'all', q: 'ann', order: 'asc', limit: 50 });
    expect(withQuery({ limit: 50 }, { limit: 25 })).toEqual({});
  });

  it('goes to a page by its cursor; the first page has none', () => {
    expect(withPage(onPage3, 3, 'c4')).toEqual({ tab: 'all', q: 'ann', order: 'asc', cursor: 'c4', page: 3 });
    expect(withPage(onPage3, 0, 'c1')).toEqual({ tab: 'all', q: 'ann', order: 'asc' });
    expect(withPage(onPage3, 1, null)).toEqual({ tab: 'all', q: 'ann', order: 'asc' });
  });
});
