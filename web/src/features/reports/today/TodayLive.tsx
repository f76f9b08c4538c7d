import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Priority, PriorityReport } from '../../../api/contract';
import { type Verdict, VERDICT_TEXT, callsText, openPastTargetText, priorityLine, verdictOf } from './todayText';
import { useTodayReport } from './useTodayReport';

const VERDICT_COLOR: Record<Verdict, string> = { within: 'success.main', over: 'error.main' };

function PriorityRow({ row, openLate }: { row: PriorityReport; openLate: number }) {
  const verdict = verdictOf(row.intervals.response.p90_s, row.target_s);
  return (
    <Box
      component="li"
      data-testid={`today-row-P${row.priority}`}
      data-verdict={verdict ?? 'none'}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, py: 0.75, borderTop: 1, borderColor: 'divider' }}
    >
      <Typography variant="body2" data-testid="today-row-text" sx={{ fontVariantNumeric: 'tabular-nums' }}>{priorityLine(row)}</Typography>
      {verdict && (
        <Typography variant="body2" data-testid="today-row-verdict" sx={{ fontWeight: 700, color: VERDICT_COLOR[verdict] }}>
          {VERDICT_TEXT[verdict]}
        </Typography>
      )}
      {openLate > 0 && (
        // The percentile counts arrivals only: an open call nobody has reached in time is said here, so "Within target" never hides it.
        <Typography variant="body2" data-testid="today-row-open-late" sx={{ fontWeight: 700, color: 'error.main', flexBasis: '100%' }}>
          {openPastTargetText(openLate)}
        </Typography>
      )}
    </Box>
  );
}

/**
 * "Today, live": calls since local midnight and each priority's 90th-percentile response
 * against its target, refetched as calls change. Priorities without a call today are left out.
 * `openPastTarget` (the operator's dashboard): open calls past their target now, by priority,
 * said under their priority's row.
 */
export function TodayLive({ openPastTarget }: { openPastTarget?: Partial<Record<Priority, number>> } = {}) {
  const { query } = useTodayReport();
  const report = query.data;
  const rows = (report?.priorities ?? []).filter((r) => r.calls > 0).sort((a, b) => a.priority - b.priority);

  let body;
  if (report) {
    body = report.overall.calls === 0 ? (
      <Typography color="text.secondary" data-testid="today-empty" sx={{ py: 1 }}>No calls yet today</Typography>
    ) : (
      <>
        <Typography variant="h5" component="p" data-testid="today-calls" sx={{ fontWeight: 800 }}>{callsText(report.overall.calls)} today</Typography>
        <Box component="ul" aria-label="90th percentile response by priority, today" sx={{ listStyle: 'none', m: 0, p: 0, mt: 1 }}>
          {rows.map((r) => <PriorityRow key={r.priority} row={r} openLate={openPastTarget?.[r.priority] ?? 0} />)}
        </Box>
      </>
    );
  } else if (query.isError) {
    body = (
      <Alert
        severity="error"
        data-testid="today-error"
        action={(
          // On the paper, as in LoadStateBanner: the error red on the alert's pink falls short of 4.5:1.
          <Button color="error" size="small" variant="outlined" onClick={() => void query.refetch()} disabled={query.isFetching} sx={{ bgcolor: 'background.paper' }}>
            Retry
          </Button>
        )}
      >
        Today&apos;s figures are unavailable
      </Alert>
    );
  } else {
    body = (
      <Box role="status" aria-label="Loading today's figures">
        <Skeleton width="40%" sx={{ fontSize: '1.5rem' }} />
        <Skeleton width="90%" />
        <Skeleton width="80%" />
      </Box>
    );
  }

  return (
    <Card component="section" aria-labelledby="today-live-title" data-testid="today-live" sx={{ p: 2.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography id="today-live-title" variant="h6" component="h2">Today, live</Typography>
        <Typography variant="caption" color="text.secondary">Response: call received to on scene</Typography>
      </Box>
      {body}
    </Card>
  );
}
