import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { AddCircleIcon, AmbulanceIcon, CheckCircleIcon, GpsIcon, MapIcon, TimerIcon } from '../../layout/icons';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useErrorToast } from '../shared/useErrorToast';
import { FleetOverview } from './FleetOverview';
import { QuickActions, type QuickAction } from '../shared/QuickActions';
import { StatTile } from '../shared/StatTile';
import { busyBreakdown, summaryStats } from './summaryStats';
import { knownOr } from '../shared/loadState';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { useLoadState } from '../shared/useLoadState';
import { TodayLive } from '../reports/today/TodayLive';

const FAIL_TEXT = 'Failed to load dashboard data';

const ACTIONS: readonly QuickAction[] = [
  { label: 'Create New Emergency Case', hint: 'Register a case and dispatch an ambulance', to: '/dashboard/new-case', icon: <AddCircleIcon color="primary" /> },
  { label: 'View Ambulance Map', hint: 'See every ambulance on the map', to: '/dashboard/ambulance-map', icon: <MapIcon color="info" /> },
  { label: 'Track Ambulances', hint: 'Fleet status, current emergencies and trackers', to: '/dashboard/ambulance-tracking', icon: <AmbulanceIcon color="success" /> },
];

/** /dashboard: the operator's summary, kept live by the socket's cache patches. */
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

  return (
    <Box sx={{ maxWidth: 1280 }}>
      <ScreenTitle title="Dashboard" subtitle="Live overview of emergencies and fleet readiness" />
      <LoadStateBanner state={load} />
      <Box sx={{ display: 'grid', gap: { xs: 1.5, sm: 2.5 }, gridTemplateColumns: { xs: '1fr 1fr', lg: 'repeat(4, 1fr)' }, mb: 3 }}>
        <StatTile label="Active Cases" value={known(stats.activeCases)} icon={<TimerIcon />} color="primary" loading={loading} />
        <StatTile label="Available Ambulances" value={known(stats.available)} caption="Free, on no active case" icon={<CheckCircleIcon />} color="success" loading={loading} />
        <StatTile label="Busy Ambulances" value={known(stats.busy)} caption={busyBreakdown(stats)} icon={<GpsIcon />} color="warning" loading={loading} />
        <StatTile label="Total Fleet" value={known(stats.total)} icon={<AmbulanceIcon />} color="info" loading={loading} />
      </Box>
      <Box sx={{ mb: 3 }}>
        <TodayLive />
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <QuickActions actions={ACTIONS} />
        <FleetOverview stats={load.phase === 'loaded' ? stats : null} loading={loading} />
      </Box>
    </Box>
  );
}
