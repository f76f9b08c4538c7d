import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { GpsIcon } from '../../layout/icons';
import { HeadsetIcon, HospitalIcon } from '../../layout/icons';

const POINTS: { icon: ReactNode; title: string; text: string }[] = [
  { icon: <HeadsetIcon />, title: '24/7 Emergency Support', text: 'Dispatchers on duty around the clock.' },
  { icon: <GpsIcon />, title: 'Real-time Ambulance Tracking', text: 'Follow the assigned ambulance live on the map.' },
  { icon: <HospitalIcon />, title: 'Professional Medical Team', text: 'Trained paramedics on every ambulance.' },
];

/** The form's side panel. */
export function SupportPanel() {
  return (
    <Paper
      component="aside"
      elevation={0}
      sx={{ p: 3, color: '#fff', background: 'linear-gradient(150deg, #b71c1c 0%, #d32f2f 55%, #e53935 100%)', borderRadius: 2.5 }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>Emergency Response</Typography>
      <Typography variant="body2" sx={{ opacity: 0.85, mb: 3 }}>Every case is dispatched and followed up until help arrives.</Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5 }}>
        {POINTS.map((p) => (
          <Box component="li" key={p.title} sx={{ display: 'flex', gap: 1.75, alignItems: 'flex-start' }}>
            <Box sx={{ width: 40, height: 40, borderRadius: 2, bgcolor: 'rgba(255,255,255,0.18)', display: 'grid', placeItems: 'center', flexShrink: 0 }}>{p.icon}</Box>
            <Box>
              <Typography sx={{ fontWeight: 700 }}>{p.title}</Typography>
              <Typography variant="body2" sx={{ opacity: 0.85 }}>{p.text}</Typography>
            </Box>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
