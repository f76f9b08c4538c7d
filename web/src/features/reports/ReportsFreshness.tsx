import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { visuallyHidden } from '../../layout/visuallyHidden';

const clock = (at: number, locale?: string) => new Date(at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });

/** "Updated 14:05": when the oldest figures on screen were fetched, in the browser's clock. */
export const updatedText = (at: number, locale?: string) => `Updated ${clock(at, locale)}`;

/**
 * When the figures on screen were fetched, and Refresh to ask again: the only way a period
 * wholly past is asked for again (only corrections change it), and a long period's way to be
 * newer than its rare refresh (reportRefresh.ts). The time is not a live region (a period reaching
 * today refreshes by itself every minute); a Refresh asked for is answered in words once it lands.
 */
export function ReportsFreshness({ updatedAt, fetching, onRefresh }: {
  /** ms; 0 before anything loaded. */
  updatedAt: number;
  fetching: boolean;
  /** Answers whether every part was fetched. */
  onRefresh: () => Promise<boolean>;
}) {
  const [said, setSaid] = useState('');
  const refresh = () => {
    setSaid('');
    // Never disabled while fetching (the focus would drop to the page): a second press asks for nothing new.
    void onRefresh().then((ok) => setSaid(ok ? `Figures updated at ${clock(Date.now())}` : 'Could not refresh the figures'));
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, ml: 'auto' }}>
      {updatedAt > 0 && (
        <Typography id="reports-updated" variant="body2" color="text.secondary" data-testid="reports-updated">{updatedText(updatedAt)}</Typography>
      )}
      <Button
        size="small"
        variant="outlined"
        onClick={refresh}
        aria-describedby={updatedAt > 0 ? 'reports-updated' : undefined}
        startIcon={fetching ? <CircularProgress size={14} color="inherit" aria-hidden /> : undefined}
      >
        Refresh
      </Button>
      <Box role="status" sx={visuallyHidden}>{said}</Box>
    </Box>
  );
}
