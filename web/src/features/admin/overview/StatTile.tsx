import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * One number on the Admin Dashboard, with its label and icon; an optional progress bar and a
 * caption saying what it counts. `value` null means unknown (its list failed): a dash, never 0.
 */
export function StatTile({ label, value, icon, color, loading, progress, caption }: {
  label: string;
  value: string | number | null;
  caption?: string;
  icon: ReactNode;
  color: string;
  loading: boolean;
  progress?: number;
}) {
  return (
    <Card sx={{ p: { xs: 2, sm: 2.5 }, height: '100%', display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid={`tile-${label}`}>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { xs: 'flex-start', sm: 'center' }, gap: { xs: 1.25, sm: 2 } }}>
        <Avatar variant="rounded" sx={{ bgcolor: `${color}1f`, color, width: { xs: 40, sm: 48 }, height: { xs: 40, sm: 48 } }}>{icon}</Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>{label}</Typography>
          {loading
            ? <Skeleton width={56} height={40} />
            : <Typography variant="h4" component="p" sx={{ lineHeight: 1.2 }} aria-label={`${label}: ${value ?? 'unknown'}`}>{value ?? '–'}</Typography>}
          {caption && !loading && value != null && <Typography variant="caption" color="text.secondary" component="p">{caption}</Typography>}
        </Box>
      </Box>
      {progress !== undefined && !loading && value != null && (
        <LinearProgress variant="determinate" value={progress} aria-label={label} sx={{ height: 8, borderRadius: 4, bgcolor: `${color}22`, '& .MuiLinearProgress-bar': { bgcolor: color } }} />
      )}
    </Card>
  );
}
