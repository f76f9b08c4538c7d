import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { AmbulanceIcon, GpsIcon, TimerIcon } from '../../layout/icons';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { CheckCircleIcon } from '../../layout/icons';
import { useErrorToast } from '../cases/useErrorToast';
import { FleetOverview } from './FleetOverview';
import { QuickActions } from './QuickActions';
import { StatTile } from './StatTile';
import { summaryStats } from './summaryStats';

/** /dashboard: the operator's summary, kept live by the socket's cache patches. */
export function OperatorSummary() {
  const refetchInterval = usePollingFallback(30_000);
  const cases = useQuery({ ...queries.cases(), refetchInterval });
  const ambulances = useQuery({ ...queries.ambulances(), refetchInterval });
  useErrorToast(
    cases.error ?? ambulances.error,
    Math.max(cases.errorUpdatedAt, ambulances.errorUpdatedAt),
    () => 'Failed to load dashboard data',
  );

  const loading = cases.isPending || ambulances.isPending;
  const stats = summaryStats(cases.data ?? [], ambulances.data ?? []);

  return (
    <Box sx={{ maxWidth: 1280 }}>
      <ScreenTitle title="Dashboard" subtitle="Live overview of emergencies and fleet readiness" />
      <Box sx={{ display: 'grid', gap: { xs: 1.5, sm: 2.5 }, gridTemplateColumns: { xs: '1fr 1fr', lg: 'repeat(4, 1fr)' }, mb: 3 }}>
        <StatTile label="Active Cases" value={stats.activeCases} icon={<TimerIcon />} color="primary" loading={loading} />
        <StatTile label="Available Ambulances" value={stats.available} icon={<CheckCircleIcon />} color="success" loading={loading} />
        <StatTile label="Busy Ambulances" value={stats.busy} icon={<GpsIcon />} color="warning" loading={loading} />
        <StatTile label="Total Fleet" value={stats.total} icon={<AmbulanceIcon />} color="info" loading={loading} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <QuickActions />
        <FleetOverview stats={stats} loading={loading} />
      </Box>
    </Box>
  );
}
