import type { TablePaginationProps } from '@mui/material/TablePagination';
import { useState, type ChangeEvent } from 'react';

export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100];
export const DEFAULT_ROWS_PER_PAGE = ROWS_PER_PAGE_OPTIONS[0];

/**
 * The rows [start, end) of a page, on a page that exists: when rows go away (a delete, a
 * narrower search) a page past the end falls back to the last one instead of showing nothing.
 */
export function pageWindow(total: number, page: number, rowsPerPage: number) {
  const lastPage = Math.max(0, Math.ceil(total / rowsPerPage) - 1);
  const shown = Math.min(Math.max(0, page), lastPage);
  const start = shown * rowsPerPage;
  return { page: shown, start, end: Math.min(total, start + rowsPerPage) };
}

/** The page chosen last, and the reset key it was chosen under. */
export interface ChosenPage { page: number; key: string }

/**
 * The rows to show: the chosen page while the reset key is the one it was chosen under,
 * otherwise the first page.
 */
export function pagedView<T>(rows: T[], chosen: ChosenPage, resetKey: string, rowsPerPage: number) {
  const { page, start, end } = pageWindow(rows.length, chosen.key === resetKey ? chosen.page : 0, rowsPerPage);
  return { page, pageRows: rows.slice(start, end) };
}

type Pagination = Pick<TablePaginationProps, 'count' | 'page' | 'rowsPerPage' | 'rowsPerPageOptions' | 'onPageChange' | 'onRowsPerPageChange'>;

/**
 * Client-side pages of a long list (the full case lists hold every demo call, and rendering
 * them all at once takes seconds). The page goes back to the first whenever `resetKey`
 * changes, so a new search, sort or filter starts at its first rows. `pagination` spreads
 * onto MUI's TablePagination.
 */
export function usePagedRows<T>(rows: T[], resetKey: string): { pageRows: T[]; pagination: Pagination } {
  const [rowsPerPage, setRowsPerPage] = useState(DEFAULT_ROWS_PER_PAGE);
  // The page remembers the key it was chosen under; under another key it is the first page.
  // Derived during render rather than reset in an effect, so no frame shows the old page.
  const [chosen, setChosen] = useState<ChosenPage>({ page: 0, key: resetKey });
  const { page, pageRows } = pagedView(rows, chosen, resetKey, rowsPerPage);

  return {
    pageRows,
    pagination: {
      count: rows.length,
      page,
      rowsPerPage,
      rowsPerPageOptions: ROWS_PER_PAGE_OPTIONS,
      onPageChange: (_event, next: number) => setChosen({ page: next, key: resetKey }),
      onRowsPerPageChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        setRowsPerPage(Number(event.target.value));
        setChosen({ page: 0, key: resetKey });
      },
    },
  };
}
