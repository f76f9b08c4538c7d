import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { AddCircleIcon, AmbulanceIcon, CheckCircleIcon, ClockIcon, ErrorIcon, GpsIcon, MapIcon, TimerIcon } from '../../layout/icons';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useErrorToast } from '../shared/useErrorToast';
import { FleetOverview } from './FleetOverview';
import { QuickActions, type QuickAction } from '../shared/QuickActions';
import { StatTile } from '../shared/StatTile';
import { busyBreakdown, callStats, pastTargetCaption, summaryStats, waitingCaption } from './summaryStats';
import { knownOr } from '../shared/loadState';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { useLoadState } from '../shared/useLoadState';
import { TodayLive } from '../reports/today/TodayLive';
import { useServerNow } from '../shared/useNow';

const FAIL_TEXT = 'Failed to load dashboard data';
/** Waits and past-target marks move with the clock: re-read this often (the board's own clocks tick each second). */
const URGENCY_TICK_MS = 5000;

const ACTIONS: readonly QuickAction[] = [
  { label: 'Create New Emergency Case', hint: 'Register a case and dispatch an ambulance', to: '/dashboard/new-case', icon: <AddCircleIcon color="primary" /> },
  { label: 'View Ambulance Map', hint: 'See every ambulance on the map', to: '/dashboard/ambulance-map', icon: <MapIcon color="info" /> },
  { label: 'Track Ambulances', hint: 'Fleet status, current emergencies and trackers', to: '/dashboard/ambulance-tracking', icon: <AmbulanceIcon color="success" /> },
];

/**
 * /dashboard: the operator's summary, kept live by the socket's cache patches. SPEC's four tiles,
 * and beside Active Cases what is urgent now: the calls waiting for an ambulance (the oldest of
 * the most urgent named) and the open calls past their response target, by priority (the
 * board's own rule, isPastTarget).
 */
export function OperatorSummary() {
  const refetchInterval = usePollingFallback(30_000);
  const cases = useQuery({ ...queries.cases(), refetchInterval });
  const ambulances = useQuery({ ...queries.ambulances(), refetchInterval });
  useErrorToast(
    cases.error ?? ambulances.error,
    Math.max(cases.errorUpdatedAt, ambulances.errorUpdatedAt),
    () => FAIL_TEXT,
  );
  const load = useLoadState([{ query: cases, failText: () => FAIL_TEXT }, { query: ambulances, failText: () => FAIL_TEXT }]);

  const loading = load.phase === 'loading';
  const stats = summaryStats(cases.data ?? [], ambulances.data ?? []);
  const known = (n: number) => knownOr(load.phase, n);
  const config = useQuery(queries.config());
  const now = useServerNow(URGENCY_TICK_MS);
  const calls = callStats(cases.data ?? [], config.data, now);

  return (
    <Box sx={{ maxWidth: 1280 }}>
      <ScreenTitle title="Dashboard" subtitle="Live overview of emergencies and fleet readiness" />
      <LoadStateBanner state={load} />
      {/* Calls on the first row (what needs a dispatcher now), the fleet on the second. */}
      <Box sx={{ display: 'grid', gap: { xs: 1.5, sm: 2.5 }, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(3, 1fr)' }, mb: 3 }}>
        <StatTile label="Active Cases" value={known(stats.activeCases)} caption="Waiting calls not included" icon={<TimerIcon />} color="primary" loading={loading} />
        <StatTile label="Waiting Calls" value={known(calls.waiting)} caption={waitingCaption(calls)} icon={<ClockIcon />} color={calls.waiting > 0 ? 'warning' : 'success'} loading={loading} />
        <StatTile label="Past Target" value={known(calls.pastTargetTotal)} caption={pastTargetCaption(calls)} icon={<ErrorIcon />} color={calls.pastTargetTotal > 0 ? 'error' : 'success'} loading={loading} />
        <StatTile label="Available Ambulances" value={known(stats.available)} caption="Free, on no active case" icon={<CheckCircleIcon />} color="success" loading={loading} />
        <StatTile label="Busy Ambulances" value={known(stats.busy)} caption={busyBreakdown(stats)} icon={<GpsIcon />} color="warning" loading={loading} />
        <StatTile label="Total Fleet" value={known(stats.total)} icon={<AmbulanceIcon />} color="info" loading={loading} />
      </Box>
      <Box sx={{ mb: 3 }}>
        <TodayLive openPastTarget={load.phase === 'loaded' ? calls.pastTarget : undefined} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <QuickActions actions={ACTIONS} />
        <FleetOverview stats={load.phase === 'loaded' ? stats : null} loading={loading} />
      </Box>
    </Box>
  );
}
