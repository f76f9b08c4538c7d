import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { GpsIcon, TimerIcon, TuneIcon } from '../../layout/icons';
import { FEATURES_ID } from './Hero';

const FEATURES: { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Real-time Tracking',
    text: 'Live GPS positions of every ambulance and every emergency case, so dispatchers always know where help is and where it is needed.',
    icon: <GpsIcon fontSize="large" />,
  },
  {
    title: 'Smart Management',
    text: 'Smart dispatch with optimized routing, automated case assignment and resource allocation across the whole fleet.',
    icon: <TuneIcon fontSize="large" />,
  },
  {
    title: 'Fast Response',
    text: 'Instant multi-channel notifications reach patients and crews the moment a case is created.',
    icon: <TimerIcon fontSize="large" />,
  },
];

export function FeatureCards() {
  return (
    <Box component="section" id={FEATURES_ID} sx={{ py: { xs: 8, md: 12 }, scrollMarginTop: 64 }}>
      <Container maxWidth="lg">
        <Typography variant="h3" component="h2" align="center" sx={{ fontSize: { xs: '2rem', md: '2.6rem' }, mb: 1.5 }}>
          Built for the control room
        </Typography>
        <Typography align="center" color="text.secondary" sx={{ maxWidth: 640, mx: 'auto', mb: 6 }}>
          Everything a dispatch centre needs to take a call, send the right crew and follow it to the door.
        </Typography>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {FEATURES.map((feature) => (
            <Card key={feature.title} sx={{ height: '100%', transition: 'box-shadow .2s, transform .2s', '&:hover': { boxShadow: 6, transform: 'translateY(-3px)' } }}>
              <CardContent sx={{ p: 4 }}>
                <Box sx={{ width: 56, height: 56, borderRadius: 3, display: 'grid', placeItems: 'center', bgcolor: 'rgba(211,47,47,0.1)', color: 'primary.main', mb: 2.5 }}>
                  {feature.icon}
                </Box>
                <Typography variant="h5" component="h3" gutterBottom>{feature.title}</Typography>
                <Typography color="text.secondary">{feature.text}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
