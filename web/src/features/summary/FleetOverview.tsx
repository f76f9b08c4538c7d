import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { SummaryStats } from './summaryStats';

function Count({ label, value, color, loading }: { label: string; value: number; color: 'success' | 'error'; loading: boolean }) {
  return (
    <Box sx={(t) => ({ flex: 1, p: 2, borderRadius: 2, bgcolor: alpha(t.palette[color].main, t.palette.mode === 'dark' ? 0.16 : 0.08) })}>
      {loading ? <Skeleton width={32} sx={{ fontSize: '1.5rem' }} /> : (
        <Typography variant="h5" component="p" data-testid={`fleet-${label.toLowerCase().replace(/\s+/g, '-')}`} sx={{ fontWeight: 800, color: `${color}.main` }}>{value}</Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>{label}</Typography>
    </Box>
  );
}

/** Fleet utilization (busy of total) with its bar, and the Available / In Service counts. */
export function FleetOverview({ stats, loading }: { stats: SummaryStats; loading: boolean }) {
  return (
    <Card component="section" aria-labelledby="fleet-overview">
      <CardContent>
        <Typography id="fleet-overview" variant="h6" component="h2" sx={{ mb: 2 }}>Fleet Status Overview</Typography>
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography color="text.secondary" sx={{ fontWeight: 600 }}>Fleet Utilization</Typography>
          {loading ? <Skeleton width={40} /> : (
            <Typography variant="h5" component="p" data-testid="fleet-utilization" sx={{ fontWeight: 800 }}>{stats.utilization}%</Typography>
          )}
        </Box>
        <LinearProgress
          variant="determinate"
          value={loading ? 0 : stats.utilization}
          aria-label="Fleet utilization"
          sx={{ height: 10, borderRadius: 5, mb: 3 }}
        />
        <Box sx={{ display: 'flex', gap: 2 }}>
          <Count label="Available" value={stats.available} color="success" loading={loading} />
          <Count label="In Service" value={stats.busy} color="error" loading={loading} />
        </Box>
      </CardContent>
    </Card>
  );
}
