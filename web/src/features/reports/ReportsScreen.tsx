import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { useToast } from '../../layout/toast';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { useLoadState } from '../shared/useLoadState';
import { DailyChart } from './DailyChart';
import { DemandHeatmap } from './DemandHeatmap';
import { HandoverChart } from './HandoverChart';
import { downloadAssignmentsCsv } from './downloadCsv';
import { PeriodPicker, type PeriodChoice } from './PeriodPicker';
import { PriorityTiles } from './PriorityTiles';
import { ReportsFreshness } from './ReportsFreshness';
import { ResponseChart } from './ResponseChart';
import { type DemandReport, localDate } from '../../api/contract';
import { REPORTS_KEY } from '../../api/reportRefresh';
import { browserTimeZone, customProblem, periodOf, periodText, presetDays, type ReportPeriod } from './reportPeriod';
import { reportsScreenQueries, sumDemand } from './reportsScreenQueries';
import { UtilisationChart } from './UtilisationChart';
import { choiceOf, searchOf, type ReportsSearch } from './reportsSearch';

const FAILED = () => 'Could not load reports';
/** The unused today's-demand query of a period that is not split: never fetched, never holds data. */
const UNSPLIT = [...REPORTS_KEY, 'demand', 'unsplit'] as const;

/** The days a choice shows, or why it cannot be asked for. */
function resolve(choice: PeriodChoice, today: string, tz: string): { period: ReportPeriod | null; problem: string | null } {
  if (choice.preset !== 'custom') {
    const { first, last } = presetDays(choice.preset, today);
    return { period: periodOf(first, last, tz), problem: null };
  }
  const problem = customProblem(choice.first, choice.last);
  return { period: problem ? null : periodOf(choice.first, choice.last, tz), problem };
}

/**
 * /dashboard/reports and /admin-dashboard/reports: response times against their targets per
 * priority, per day, demand by hour of week, unit utilisation and hospital handover over a chosen period, each
 * chart with its figures in a table, and the period's assignments as CSV. Days are the
 * browser's local days (its IANA zone is sent with every request). The period is the route's
 * search params (`search`, moved by `go`): a reload or a link shows the same period; Back works.
 */
export function ReportsScreen({ search, go }: { search: ReportsSearch; go: (next: ReportsSearch, options?: { replace?: boolean }) => void }) {
  const [tz] = useState(browserTimeZone);
  const [today] = useState(() => localDate(Date.now(), tz));
  const choice = choiceOf(search, today);
  const { period, problem } = resolve(choice, today, tz);

  // A new period keeps the last one's figures on screen (with a progress bar) until it has loaded.
  const enabled = period != null;
  const asked = period ?? periodOf(today, today, tz);
  const parts = reportsScreenQueries(asked, today);
  const keep = { enabled, placeholderData: keepPreviousData } as const;
  const responseTimes = useQuery({ ...parts.responseTimes, ...keep });
  const utilisation = useQuery({ ...parts.utilisation, ...keep });
  const handover = useQuery({ ...parts.handover, ...keep });
  const demandPast = useQuery({ ...parts.demand[0], ...keep });
  // Today onwards when the period is split (see reportsScreenQueries); otherwise switched off under a key of its own,
  // so that a period split next never takes a whole period's counts as its placeholder for today's (twice counted).
  const split = parts.demand.length > 1;
  const demandToday = useQuery({ ...(parts.demand[1] ?? parts.demand[0]), ...(split ? {} : { queryKey: UNSPLIT }), enabled: enabled && split, placeholderData: keepPreviousData });
  const demandQueries = split ? [demandPast, demandToday] : [demandPast];
  const demandParts = demandQueries.map((q) => q.data);
  const demand = demandParts.every((d): d is DemandReport => d !== undefined) ? sumDemand(asked, demandParts) : undefined;
  const shown = [responseTimes, utilisation, handover, ...demandQueries];
  const load = useLoadState(shown.map((query) => ({ query, failText: FAILED })));
  // Only while a period is being fetched: an unfinished custom period asks for nothing, and the last figures are all there is.
  const refreshing = enabled && shown.some((q) => q.isPlaceholderData);
  const fetching = shown.some((q) => q.isFetching);
  const updatedAt = Math.min(...shown.map((q) => q.dataUpdatedAt));
  // Asks again for every part, past days included (corrections); one already on its way is kept, not asked twice.
  const refresh = () => Promise.all(shown.map((q) => q.refetch({ cancelRefetch: false }))).then((results) => results.every((r) => !r.isError));

  const toast = useToast();
  const [downloading, setDownloading] = useState(false);
  const download = () => {
    if (!period) return;
    setDownloading(true);
    downloadAssignmentsCsv(period)
      .catch(() => toast('Could not download the CSV. Please try again.', 'error'))
      .finally(() => setDownloading(false));
  };

  const onChoice = (next: PeriodChoice) => {
    // Custom starts from the days shown so far, so only the day that changes needs choosing.
    if (next.preset === 'custom' && choice.preset !== 'custom') go(searchOf({ preset: 'custom', ...presetDays(choice.preset, today) }));
    // A day being chosen changes the period in place: Back leaves the custom period, not one day of it.
    else go(searchOf(next), { replace: next.preset === 'custom' && choice.preset === 'custom' });
  };

  const report = responseTimes.data;
  return (
    <>
      <ScreenTitle
        title="Reports"
        subtitle={period ? `${periodText(period)} · days and hours in ${tz}` : 'Choose the days to report on'}
        actions={(
          <Button
            variant="contained"
            onClick={download}
            disabled={!period || downloading}
            startIcon={downloading ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            Download CSV
          </Button>
        )}
      />
      <Stack spacing={2.5}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
          <PeriodPicker value={choice} onChange={onChoice} problem={problem} />
          {period && <ReportsFreshness updatedAt={load.phase === 'loaded' && !refreshing ? updatedAt : 0} fetching={fetching} onRefresh={refresh} />}
        </Box>
        {refreshing && <LinearProgress aria-label="Loading the new period" />}
        <LoadStateBanner state={load} />
        {!period ? null : load.phase === 'loading' ? (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 10 }}>
            <CircularProgress />
            <Typography>Loading reports…</Typography>
          </Box>
        ) : load.phase === 'failed' || !report || !utilisation.data || !handover.data || !demand ? null : report.overall.calls === 0 ? (
          <Paper variant="outlined" sx={{ py: 8, textAlign: 'center' }}>
            <Typography variant="h6" component="p" data-testid="reports-empty">No calls in this period</Typography>
            <Typography color="text.secondary">Choose a longer period, or come back once calls have been taken.</Typography>
          </Paper>
        ) : (
          <>
            <Typography data-testid="reports-total">
              <strong>{report.overall.calls}</strong> {report.overall.calls === 1 ? 'call' : 'calls'} received in this period
            </Typography>
            <PriorityTiles priorities={report.priorities} />
            <ResponseChart priorities={report.priorities} overall={report.overall} />
            <DailyChart daily={report.daily} />
            <DemandHeatmap report={demand} />
            <UtilisationChart report={utilisation.data} />
            <HandoverChart report={handover.data} />
          </>
        )}
      </Stack>
    </>
  );
}
