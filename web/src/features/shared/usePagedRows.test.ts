import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROWS_PER_PAGE, pagedView, pageWindow, usePagedRows } from './usePagedRows';

const rows = Array.from({ length: 60 }, (_, i) => i);

describe('pageWindow: always a page that exists', () => {
  it('cuts the rows into pages, the last one short', () => {
    expect(pageWindow(60, 0, 25)).toEqual({ page: 0, start: 0, end: 25 });
    expect(pageWindow(60, 2, 25)).toEqual({ page: 2, start: 50, end: 60 });
  });
  it('falls back to the last page when the rows shrink under it', () => {
    expect(pageWindow(30, 2, 25)).toEqual({ page: 1, start: 25, end: 30 });
  });
  it('is the empty first page without rows', () => {
    expect(pageWindow(0, 3, 25)).toEqual({ page: 0, start: 0, end: 0 });
  });
});

describe('pagedView: a new search, sort or filter starts on the first page', () => {
  it('keeps the chosen page under the key it was chosen with', () => {
    const view = pagedView(rows, { page: 1, key: 'fire|asc' }, 'fire|asc', 25);
    expect(view.page).toBe(1);
    expect(view.pageRows).toEqual(rows.slice(25, 50));
  });
  it('goes back to the first page when the key changes', () => {
    const view = pagedView(rows, { page: 1, key: 'fire|asc' }, 'fire|desc', 25);
    expect(view.page).toBe(0);
    expect(view.pageRows).toEqual(rows.slice(0, 25));
  });
  it('keeps the list order: page 1 is the first rows as given', () => {
    expect(pagedView(['open', 'open', 'closed'], { page: 0, key: '' }, '', 2).pageRows).toEqual(['open', 'open']);
  });
});

describe('usePagedRows', () => {
  it('starts on the first page of 25 rows, counting every row', () => {
    let seen: ReturnType<typeof usePagedRows<number>> | null = null;
    const Probe = () => {
      seen = usePagedRows(rows, 'key');
      return null;
    };
    renderToStaticMarkup(createElement(Probe));
    expect(DEFAULT_ROWS_PER_PAGE).toBe(25);
    expect(seen!.pageRows).toEqual(rows.slice(0, 25));
    expect(seen!.pagination).toMatchObject({ count: 60, page: 0, rowsPerPage: 25, rowsPerPageOptions: [25, 50, 100] });
  });
});
