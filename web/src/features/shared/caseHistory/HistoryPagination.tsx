import TablePagination from '@mui/material/TablePagination';
import type { ChangeEvent } from 'react';
import { CASE_PAGE_SIZES } from '../../../api/contract';

export interface HistoryPaginationProps {
  /** 0 = the first page. */
  page: number;
  limit: number;
  /** Rows on this page. */
  shown: number;
  /** Matching cases: exact while `totalExact`, else at least this many. */
  total: number;
  totalExact: boolean;
  hasPrev: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}

/** "240", or "10,000+" when the server stopped counting (at HISTORY_COUNT_CAP). */
export const totalText = ({ total, totalExact }: Pick<HistoryPaginationProps, 'total' | 'totalExact'>) =>
  (totalExact ? total.toLocaleString() : `${total.toLocaleString()}+`);

/** "26–50 of 240", "26–50 of 10,000+". */
export function rangeText(p: Pick<HistoryPaginationProps, 'page' | 'limit' | 'shown' | 'total' | 'totalExact'>): string {
  const from = p.shown === 0 ? 0 : p.page * p.limit + 1;
  return `${from}–${p.page * p.limit + p.shown} of ${totalText(p)}`;
}

// MUI's one-line toolbar is wider than a phone: the next-page button would fall off the screen.
const PHONE_SX = {
  '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', pl: 0 },
  '& .MuiTablePagination-actions': { ml: 1 },
} as const;

/**
 * MUI's pagination over server pages: Next and Previous follow the server's cursors (Next
 * only while there is a next page), First goes back to the newest rows. The count is given
 * as unknown (-1) to MUI, which would otherwise do page arithmetic the cursors decide.
 */
export function HistoryPagination(props: HistoryPaginationProps & { phone?: boolean }) {
  return (
    <TablePagination
      component="div"
      count={-1}
      page={props.page}
      rowsPerPage={props.limit}
      rowsPerPageOptions={[...CASE_PAGE_SIZES]}
      onPageChange={(_event, next) => props.onPage(next)}
      onRowsPerPageChange={(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => props.onLimit(Number(event.target.value))}
      labelDisplayedRows={() => rangeText(props)}
      showFirstButton
      slotProps={{
        actions: {
          firstButton: { disabled: !props.hasPrev },
          previousButton: { disabled: !props.hasPrev },
          nextButton: { disabled: !props.hasNext },
        },
      }}
      sx={props.phone ? PHONE_SX : undefined}
    />
  );
}
