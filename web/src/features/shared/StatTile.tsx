import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { alpha, type Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { visuallyHidden } from '../../layout/visuallyHidden';

/** A theme colour, or a fixed one for a number the palette has no colour for. */
export type TileColor = 'primary' | 'secondary' | 'success' | 'error' | 'info' | 'warning' | `#${string}`;


const mainOf = (t: Theme, color: TileColor) => (color.startsWith('#') ? color : t.palette[color as Exclude<TileColor, `#${string}`>].main);

/**
 * One summary number: label, value (a skeleton while loading, a dash when it could not be
 * loaded: unknown is never 0), an optional caption saying what it counts, an optional
 * progress bar (a percentage), and a coloured icon.
 */
export function StatTile({ label, value, icon, color, loading, caption, progress }: {
  label: string;
  value: string | number | null;
  icon: ReactNode;
  color: TileColor;
  loading: boolean;
  caption?: string;
  progress?: number;
}) {
  const id = `tile-${label.toLowerCase().replace(/\s+/g, '-')}`;
  const known = !loading && value != null;
  return (
    <Card
      component="section"
      aria-labelledby={id}
      data-testid={`tile-${label}`}
      sx={{ p: { xs: 2, sm: 2.5 }, height: '100%', display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1.5 }}>
        <Typography id={id} variant="body2" color="text.secondary" sx={{ fontWeight: 600, pt: 0.5 }}>{label}</Typography>
        <Avatar
          variant="rounded"
          sx={(t) => ({ bgcolor: alpha(mainOf(t, color), t.palette.mode === 'dark' ? 0.22 : 0.12), color: mainOf(t, color), width: 44, height: 44, display: { xs: 'none', sm: 'flex' } })}
        >
          {icon}
        </Avatar>
      </Box>
      <Box sx={{ mt: 'auto' }}>
        {loading ? (
          // The skeleton is a picture of a number to come: hidden from assistive tech, which reads the word instead (a name on a plain span is not allowed).
          <>
            <Skeleton variant="text" width={48} sx={{ fontSize: '2.125rem' }} aria-hidden />
            <Box component="span" sx={visuallyHidden}>Loading</Box>
          </>
        ) : (
          <Typography variant="h4" component="p" data-testid={id} aria-label={value == null ? 'Unknown' : undefined} sx={{ fontWeight: 800, lineHeight: 1.2 }}>{value ?? '–'}</Typography>
        )}
        {caption && known && (
          <Typography variant="caption" color="text.secondary" component="p" data-testid={`${id}-caption`}>{caption}</Typography>
        )}
      </Box>
      {progress !== undefined && known && (
        <LinearProgress
          variant="determinate"
          value={progress}
          aria-label={label}
          sx={(t) => ({ height: 8, borderRadius: 4, bgcolor: alpha(mainOf(t, color), 0.14), '& .MuiLinearProgress-bar': { bgcolor: mainOf(t, color) } })}
        />
      )}
    </Card>
  );
}
