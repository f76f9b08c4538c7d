import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect } from 'react';
import { CASE_PAGE_DEFAULT, CASE_PAGE_SIZES } from '../../../api/contract';
import { ApiError } from '../../../api/client';
import { queries } from '../../../api/queries';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { serverErrorOr } from '../shared/errors';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { useLoadState } from '../../shared/useLoadState';
import { RefreshIcon } from '../../../layout/icons';
import { OutboxMessageCard } from './OutboxMessageCard';
import { OUTBOX_STATUSES, type OutboxSearch, type OutboxStatus, firstPage, outboxQueryOf, turnPage } from './outboxSearch';

const route = getRouteApi('/_admin/admin-dashboard/outbox');

const STATUS_LABELS: Record<OutboxStatus, string> = { queued: 'Queued', sending: 'Sending', sent: 'Sent', failed: 'Failed' };

/**
 * /admin-dashboard/outbox: the queued and sent e-mails, newest first, a page at a time from
 * the server (GET /api/outbox), filtered by status there. Without an SMTP server this is where
 * a demo user picks up the patient's share-location link and the tracking links. Only the
 * page on screen is cached and polled: a year of mail never reaches the browser. The status,
 * page size and page are the route's search params (a reload or a link shows the same; Back works).
 */
export function OutboxPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = (next: OutboxSearch, replace = false) => void navigate({ search: next, replace });
  const page = search.page ?? 0;
  const limit = search.limit ?? CASE_PAGE_DEFAULT;
  const outbox = useQuery({ ...queries.outbox(outboxQueryOf(search)), refetchInterval: 15_000 });
  const load = useLoadState([{ query: outbox, failText: (e) => serverErrorOr(e, 'Failed to load messages') }]);
  const answer = outbox.data;
  // A page reached by cursor that has emptied meanwhile (retention deleted its mail), or a cursor
  // the server refuses (an old or hand-made link): back to the newest, in place of the dead page.
  const deadPage = search.cursor != null && ((answer != null && answer.messages.length === 0) || (outbox.error instanceof ApiError && outbox.error.status === 400));
  useEffect(() => {
    if (deadPage) void navigate({ search: firstPage(search.status, search.limit), replace: true });
  }, [deadPage, navigate, search.status, search.limit]);

  return (
    <>
      <ScreenTitle
        title="Outbox"
        subtitle="Every queued and sent e-mail, with the links it carries"
        actions={(
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => void outbox.refetch()} disabled={outbox.isFetching}>
            Refresh
          </Button>
        )}
      />
      <Alert severity="info" sx={{ mb: 2 }}>
        Without a mail server, messages stay queued here: open or copy a patient's share-location link or a tracking link from the message.
        Once a message is sent (or has failed for good), its link tokens and codes are removed and shown as ….
      </Alert>
      <TextField
        select
        size="small"
        label="Status"
        value={search.status ?? ''}
        onChange={(e) => go(firstPage((e.target.value || undefined) as OutboxStatus | undefined, search.limit))}
        sx={{ mb: 2, width: { xs: '100%', sm: 200 } }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">All</MenuItem>
        {OUTBOX_STATUSES.map((s) => <MenuItem key={s} value={s}>{STATUS_LABELS[s]}</MenuItem>)}
      </TextField>
      <LoadStateBanner state={load} />
      {load.phase === 'loading' && (
        <Box role="status" aria-label="Loading messages" sx={{ display: 'grid', placeItems: 'center', py: 10 }}><CircularProgress /></Box>
      )}
      {load.phase === 'loaded' && answer && (answer.messages.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 8, textAlign: 'center' }}>
          {search.status ? `No ${search.status} messages` : 'No messages yet'}
        </Typography>
      ) : (
        <>
          <Stack spacing={2}>{answer.messages.map((m) => <OutboxMessageCard key={m.id} message={m} />)}</Stack>
          <TablePagination
            component="div"
            aria-label="Outbox pages"
            // Past HISTORY_COUNT_CAP the server stops counting: MUI then says "of more than …".
            count={answer.total_exact ? answer.total : -1}
            page={page}
            rowsPerPage={limit}
            rowsPerPageOptions={[...CASE_PAGE_SIZES]}
            labelRowsPerPage="Messages per page"
            onPageChange={(_, to) => go(turnPage(search, to, answer))}
            onRowsPerPageChange={(e) => go(firstPage(search.status, Number(e.target.value)))}
            // The server's cursors, not the count, say whether a neighbour page exists (mail is queued all the time).
            slotProps={{ actions: { nextButton: { disabled: !answer.next_cursor }, previousButton: { disabled: page === 0 } } }}
          />
        </>
      ))}
    </>
  );
}
