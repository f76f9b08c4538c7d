import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

/**
 * A chart's figures as a plain table: a caption saying what it holds, column headers, and
 * each row's first cell as its row header. Numbers are right-aligned for reading down a column.
 */
export function FigureTable({ caption, columns, rows, testId }: {
  caption: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
  testId?: string;
}) {
  return (
    <Table size="small" data-testid={testId} sx={{ '& caption': { captionSide: 'top', px: 0, pt: 0, typography: 'body2', color: 'text.secondary' } }}>
      <caption>{caption}</caption>
      <TableHead>
        <TableRow>
          {columns.map((c, i) => <TableCell key={c} scope="col" align={i === 0 ? 'left' : 'right'} sx={{ fontWeight: 700 }}>{c}</TableCell>)}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.key}>
            {r.cells.map((cell, i) => (i === 0
              ? <TableCell key={i} component="th" scope="row">{cell}</TableCell>
              : <TableCell key={i} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>{cell}</TableCell>))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
