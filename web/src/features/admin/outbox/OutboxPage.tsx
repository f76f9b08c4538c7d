import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { queries } from '../../../api/queries';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { serverErrorOr } from '../shared/errors';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { useLoadState } from '../../shared/useLoadState';
import { RefreshIcon } from '../../../layout/icons';
import { OutboxMessageCard } from './OutboxMessageCard';
import { matchesFilter, newestFirst } from './outboxText';

/**
 * /admin-dashboard/outbox: every queued and sent e-mail. Without an SMTP server this is
 * where a demo user picks up the patient's share-location link and the tracking links.
 */
export function OutboxPage() {
  const outbox = useQuery({ ...queries.outbox(), refetchInterval: 15_000 });
  const load = useLoadState([{ query: outbox, failText: (e) => serverErrorOr(e, 'Failed to load messages') }]);
  const [filter, setFilter] = useState('');
  const messages = useMemo(() => newestFirst(outbox.data ?? []).filter((m) => matchesFilter(m, filter)), [outbox.data, filter]);

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
      {(outbox.data?.length ?? 0) > 0 && (
        <TextField
          size="small"
          label="Filter by recipient, subject or case"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          sx={{ mb: 2, width: { xs: '100%', sm: 360 } }}
        />
      )}
      <LoadStateBanner state={load} />
      {load.phase === 'failed' ? null : load.phase === 'loading' ? (
        <Box role="status" aria-label="Loading messages" sx={{ display: 'grid', placeItems: 'center', py: 10 }}><CircularProgress /></Box>
      ) : messages.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 8, textAlign: 'center' }}>
          {filter ? 'No messages match this filter' : 'No messages yet'}
        </Typography>
      ) : (
        <Stack spacing={2}>{messages.map((m) => <OutboxMessageCard key={m.id} message={m} />)}</Stack>
      )}
    </>
  );
}
