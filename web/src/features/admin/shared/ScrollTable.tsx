import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableContainer from '@mui/material/TableContainer';
import type { ReactNode } from 'react';

/**
 * An outlined table that scrolls sideways on narrow screens instead of squeezing its columns. The scrolling
 * region takes the focus itself (axe: scrollable-region-focusable), so a keyboard can scroll it while it holds
 * nothing focusable (its loading skeleton, a table of text).
 */
export function ScrollTable({ label, minWidth = 720, children }: { label: string; minWidth?: number; children: ReactNode }) {
  return (
    <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label={label} sx={{ overflowX: 'auto' }}>
      <Table aria-label={label} size="small" sx={{ minWidth, '& th': { fontWeight: 700, whiteSpace: 'nowrap', bgcolor: 'action.hover' }, '& td, & th': { py: 1.25, px: 1.25 }, '& td:first-of-type, & th:first-of-type': { pl: 2 } }}>
        {children}
      </Table>
    </TableContainer>
  );
}
