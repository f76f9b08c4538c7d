import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { SummaryStats } from './summaryStats';

function Count({ label, value, color, loading }: { label: string; value: number | null; color: 'success' | 'error'; loading: boolean }) {
  return (
    <Box sx={(t) => ({ flex: 1, p: 2, borderRadius: 2, bgcolor: alpha(t.palette[color].main, t.palette.mode === 'dark' ? 0.16 : 0.08) })}>
      {loading ? <Skeleton width={32} sx={{ fontSize: '1.5rem' }} /> : (
        <Typography variant="h5" component="p" data-testid={`fleet-${label.toLowerCase().replace(/\s+/g, '-')}`} aria-label={value == null ? 'Unknown' : undefined} sx={{ fontWeight: 800, color: `${color}.main` }}>{value ?? '–'}</Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>{label}</Typography>
    </Box>
  );
}

/**
 * Fleet utilization (busy of total) with its bar, and the Available / In Service counts.
 * `stats` is null when the lists could not be loaded: dashes, never zeros.
 */
export function FleetOverview({ stats, loading }: { stats: SummaryStats | null; loading: boolean }) {
  return (
    <Card component="section" aria-labelledby="fleet-overview">
      <CardContent>
        <Typography id="fleet-overview" variant="h6" component="h2" sx={{ mb: 2 }}>Fleet Status Overview</Typography>
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography color="text.secondary" sx={{ fontWeight: 600 }}>Fleet Utilization</Typography>
          {loading ? <Skeleton width={40} /> : (
            <Typography variant="h5" component="p" data-testid="fleet-utilization" sx={{ fontWeight: 800 }}>{stats ? `${stats.utilization}%` : '–'}</Typography>
          )}
        </Box>
        <LinearProgress
          variant="determinate"
          value={stats?.utilization ?? 0}
          aria-label="Fleet utilization"
          sx={{ height: 10, borderRadius: 5, mb: 3 }}
        />
        <Box sx={{ display: 'flex', gap: 2 }}>
          <Count label="Available" value={stats?.available ?? null} color="success" loading={loading} />
          <Count label="In Service" value={stats?.busy ?? null} color="error" loading={loading} />
        </Box>
      </CardContent>
    </Card>
  );
}
