import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';

/** A count in the board's header (Active Cases, Total Cases); a dash until loaded. */
export function HeaderCount({ label, value, color }: { label: string; value: number | null; color: 'primary' | 'info' }) {
  const id = `count-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Box
      role="group"
      aria-labelledby={id}
      sx={(t) => ({ px: 2, py: 1, minWidth: 116, borderRadius: 2, border: 1, borderColor: alpha(t.palette[color].main, 0.35), bgcolor: alpha(t.palette[color].main, t.palette.mode === 'dark' ? 0.16 : 0.06) })}
    >
      <Typography variant="h5" component="p" data-testid={id} sx={{ fontWeight: 800, color: `${color}.main`, lineHeight: 1.2 }}>{value ?? '–'}</Typography>
      <Typography id={id} variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>{label}</Typography>
    </Box>
  );
}
