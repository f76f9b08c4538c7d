import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GpsIcon, TimerIcon } from '../../../layout/icons';
import { ShieldIcon } from '../../../layout/icons';

const POINTS = [
  { icon: <TimerIcon fontSize="small" />, text: '24/7 emergency response' },
  { icon: <GpsIcon fontSize="small" />, text: 'Real-time case tracking' },
  { icon: <ShieldIcon fontSize="small" />, text: 'Secure patient information' },
];

/** The Edit Case dialog's side panel. */
export function UpdateCasePanel() {
  return (
    <Box sx={{
      background: 'linear-gradient(160deg, #d32f2f 0%, #a51d1d 55%, #1d3557 100%)',
      color: '#fff', p: { xs: 2.5, md: 3.5 }, display: 'flex', flexDirection: 'column', gap: 2,
    }}>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 800 }}>Update Case</Typography>
      <Typography variant="body2" sx={{ opacity: 0.9, display: { xs: 'none', md: 'block' } }}>
        Keep every emergency record accurate so the right crew reaches the right patient, fast.
      </Typography>
      <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: { xs: 'none', md: 'flex' } }}>
        {POINTS.map((p) => (
          <Stack key={p.text} component="li" direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
            <Box sx={{ display: 'grid', placeItems: 'center', width: 32, height: 32, borderRadius: '50%', bgcolor: 'rgba(255,255,255,0.18)' }}>{p.icon}</Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>{p.text}</Typography>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
