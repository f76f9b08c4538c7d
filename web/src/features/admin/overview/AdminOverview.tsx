import Grid from '@mui/material/Grid';
import { AmbulanceIcon, GroupIcon } from '../../../layout/icons';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { CheckIcon, FolderIcon, TrendingUpIcon, WarningIcon } from '../../../layout/icons';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { busyBreakdown } from '../../summary/summaryStats';
import { QuickActions } from './QuickActions';
import { RecentCases } from './RecentCases';
import { StatTile } from './StatTile';
import { useOverviewData } from './useOverviewData';

/** /admin-dashboard: counts, fleet utilization, shortcuts and the latest cases. */
export function AdminOverview() {
  const { load, counts, pending, recentCases } = useOverviewData();
  const tiles = [
    { label: 'Total Operators', value: counts.totalOperators, icon: <GroupIcon />, color: '#1d3557', loading: pending.operators },
    { label: 'Active Cases', value: counts.activeCases, icon: <WarningIcon />, color: '#d32f2f', loading: pending.cases },
    { label: 'Available Ambulances', value: counts.availableAmbulances, icon: <CheckIcon />, color: '#2e7d32', loading: pending.fleet, caption: 'Free, on no active case' },
    {
      label: 'Busy Ambulances', value: counts.busyAmbulances, icon: <AmbulanceIcon />, color: '#ed6c02', loading: pending.fleet,
      caption: counts.busyBreakdown ? busyBreakdown(counts.busyBreakdown) : undefined,
    },
    { label: 'Total Cases', value: counts.totalCases, icon: <FolderIcon />, color: '#6a1b9a', loading: pending.cases },
    {
      label: 'Fleet Utilization', value: counts.utilization == null ? null : `${counts.utilization}%`, icon: <TrendingUpIcon />, color: '#0277bd',
      progress: counts.utilization ?? undefined, loading: pending.fleet,
    },
  ];

  return (
    <>
      <ScreenTitle title="Admin Dashboard" subtitle="Manage your emergency response system" />
      <LoadStateBanner state={load} />
      <Grid container spacing={{ xs: 1.5, sm: 2 }} sx={{ mb: 3 }}>
        {tiles.map((t) => (
          <Grid key={t.label} size={{ xs: 6, lg: 4 }}>
            <StatTile {...t} />
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <QuickActions />
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <RecentCases cases={recentCases} loading={pending.cases} />
        </Grid>
      </Grid>
    </>
  );
}
