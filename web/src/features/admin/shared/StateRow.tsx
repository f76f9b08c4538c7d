import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

/** A full-width table row for Loading and empty states. */
export function StateRow({ colSpan, text, loading = false }: { colSpan: number; text: string; loading?: boolean }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ py: 5 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: 'center' }} role={loading ? 'status' : undefined}>
          {loading && <CircularProgress size={20} />}
          <Typography color="text.secondary">{text}</Typography>
        </Stack>
      </TableCell>
    </TableRow>
  );
}
