import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';

export type TileColor = 'primary' | 'success' | 'error' | 'info' | 'warning';

/**
 * One summary number: label, value (a skeleton while loading, a dash when it could not be
 * loaded: unknown is never 0), an optional caption saying what it counts, and a coloured icon.
 */
export function StatTile({ label, value, icon, color, loading, caption }: { label: string; value: number | null; icon: ReactNode; color: TileColor; loading: boolean; caption?: string }) {
  const id = `tile-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 2.5 }, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1.5 }}>
        <Typography id={id} variant="body2" color="text.secondary" sx={{ fontWeight: 600, pt: 0.5 }}>{label}</Typography>
        <Avatar
          variant="rounded"
          sx={(t) => ({ bgcolor: alpha(t.palette[color].main, t.palette.mode === 'dark' ? 0.22 : 0.12), color: `${color}.main`, width: 44, height: 44, display: { xs: 'none', sm: 'flex' } })}
        >
          {icon}
        </Avatar>
      </Box>
      <Box sx={{ mt: 'auto' }}>
        {loading ? (
          <Skeleton variant="text" width={48} sx={{ fontSize: '2.125rem' }} aria-label="Loading" />
        ) : (
          <Typography variant="h4" component="p" data-testid={id} aria-label={value == null ? 'Unknown' : undefined} sx={{ fontWeight: 800, lineHeight: 1.2 }}>{value ?? '–'}</Typography>
        )}
        {caption && !loading && value != null && (
          <Typography variant="caption" color="text.secondary" component="p" data-testid={`${id}-caption`}>{caption}</Typography>
        )}
      </Box>
    </Card>
  );
}
