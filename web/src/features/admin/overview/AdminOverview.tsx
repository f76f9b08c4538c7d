import type { ComponentProps } from 'react';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import { AmbulanceIcon, CheckIcon, FolderIcon, GroupIcon, ListIcon, TrendingUpIcon, WarningIcon } from '../../../layout/icons';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { QuickActions, type QuickAction } from '../../shared/QuickActions';
import { StatTile } from '../../shared/StatTile';
import { busyBreakdown } from '../../summary/summaryStats';
import { MeasuredLine } from '../../reports/today/MeasuredLine';
import { TodayLive } from '../../reports/today/TodayLive';
import { RecentCases } from './RecentCases';
import { useOverviewData } from './useOverviewData';

/** Shortcuts to the admin's three management screens. */
const ACTIONS: readonly QuickAction[] = [
  { label: 'Manage Operators', hint: 'Dispatcher accounts, their shifts and contact details', to: '/admin-dashboard/operators', icon: <GroupIcon color="secondary" /> },
  { label: 'Manage Ambulances', hint: 'Your fleet: plates, status and driver contacts', to: '/admin-dashboard/ambulances', icon: <AmbulanceIcon color="primary" /> },
  { label: 'View All Cases', hint: 'Every case, with edit and delete', to: '/admin-dashboard/cases', icon: <ListIcon color="action" /> },
];

/** /admin-dashboard: counts, fleet utilization, what was measured, today's figures, shortcuts and the latest cases. */
export function AdminOverview() {
  const { load, counts, pending, recentCases } = useOverviewData();
  const tiles: ComponentProps<typeof StatTile>[] = [
    { label: 'Total Operators', value: counts.totalOperators, icon: <GroupIcon />, color: 'secondary', loading: pending.operators },
    { label: 'Active Cases', value: counts.activeCases, icon: <WarningIcon />, color: 'error', loading: pending.cases },
    { label: 'Available Ambulances', value: counts.availableAmbulances, icon: <CheckIcon />, color: 'success', loading: pending.fleet, caption: 'Free, on no active case' },
    {
      label: 'Busy Ambulances', value: counts.busyAmbulances, icon: <AmbulanceIcon />, color: 'warning', loading: pending.fleet,
      caption: counts.busyBreakdown ? busyBreakdown(counts.busyBreakdown) : undefined,
    },
    { label: 'Total Cases', value: counts.totalCases, icon: <FolderIcon />, color: '#6a1b9a', loading: pending.cases },
    {
      label: 'Fleet Utilization', value: counts.utilization == null ? null : `${counts.utilization}%`, icon: <TrendingUpIcon />, color: 'info',
      progress: counts.utilization ?? undefined, loading: pending.fleet,
    },
  ];

  return (
    <>
      <ScreenTitle title="Admin Dashboard" subtitle="Manage your emergency response system" />
      <LoadStateBanner state={load} />
      <Grid container spacing={{ xs: 1.5, sm: 2 }} sx={{ mb: 1.5 }}>
        {tiles.map((t) => (
          <Grid key={t.label} size={{ xs: 6, lg: 4 }}>
            <StatTile {...t} />
          </Grid>
        ))}
      </Grid>
      <MeasuredLine />
      <Box sx={{ mb: 3 }}>
        <TodayLive />
      </Box>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <QuickActions actions={ACTIONS} />
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <RecentCases cases={recentCases} loading={pending.recent} />
        </Grid>
      </Grid>
    </>
  );
}
