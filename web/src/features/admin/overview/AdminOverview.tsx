import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { AmbulanceIcon, GroupIcon } from '../../../layout/icons';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { CheckIcon, FolderIcon, TrendingUpIcon, WarningIcon } from '../../../layout/icons';
import { QuickActions } from './QuickActions';
import { RecentCases } from './RecentCases';
import { StatTile } from './StatTile';
import { useOverviewData } from './useOverviewData';

/** /admin-dashboard: counts, fleet utilization, shortcuts and the latest cases. */
export function AdminOverview() {
  const { loading, counts, warnings, recentCases, casesPending } = useOverviewData();
  const tiles = [
    { label: 'Total Operators', value: counts.totalOperators, icon: <GroupIcon />, color: '#1d3557' },
    { label: 'Active Cases', value: counts.activeCases, icon: <WarningIcon />, color: '#d32f2f' },
    { label: 'Available Ambulances', value: counts.availableAmbulances, icon: <CheckIcon />, color: '#2e7d32' },
    { label: 'Busy Ambulances', value: counts.busyAmbulances, icon: <AmbulanceIcon />, color: '#ed6c02' },
    { label: 'Total Cases', value: counts.totalCases, icon: <FolderIcon />, color: '#6a1b9a' },
    { label: 'Fleet Utilization', value: `${counts.utilization}%`, icon: <TrendingUpIcon />, color: '#0277bd', progress: counts.utilization },
  ];

  return (
    <>
      <ScreenTitle title="Admin Dashboard" subtitle="Manage your emergency response system" />
      {warnings.length > 0 && (
        <Stack spacing={1} sx={{ mb: 2 }}>
          {warnings.map((w) => <Alert key={w} severity="warning">{w}</Alert>)}
        </Stack>
      )}
      <Grid container spacing={{ xs: 1.5, sm: 2 }} sx={{ mb: 3 }}>
        {tiles.map((t) => (
          <Grid key={t.label} size={{ xs: 6, lg: 4 }}>
            <StatTile {...t} loading={loading} />
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <QuickActions />
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <RecentCases cases={recentCases} loading={casesPending} />
        </Grid>
      </Grid>
    </>
  );
}
