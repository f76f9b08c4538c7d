import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ButtonLink } from '../../layout/links';
import { AmbulanceIllustration } from '../signin/AmbulanceIllustration';

export const FEATURES_ID = 'features';

function scrollToFeatures() {
  document.getElementById(FEATURES_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

export function Hero() {
  return (
    <Box component="section" sx={{ background: 'linear-gradient(135deg, #1d3557 0%, #26466f 55%, #a51d1d 130%)', color: '#fff' }}>
      <Container maxWidth="lg" sx={{ py: { xs: 8, md: 12 }, display: 'grid', gap: 6, alignItems: 'center', gridTemplateColumns: { xs: '1fr', md: '1.1fr 0.9fr' } }}>
        <Box>
          <Chip label="Emergency Location Management System" sx={{ bgcolor: 'rgba(255,255,255,0.14)', color: '#fff', mb: 3, fontWeight: 600 }} />
          <Typography variant="h2" component="h1" sx={{ fontSize: { xs: '2.4rem', md: '3.4rem' }, lineHeight: 1.1, mb: 2.5 }}>
            Every second counts. Get help where it is needed, faster.
          </Typography>
          <Typography sx={{ fontSize: '1.15rem', opacity: 0.88, mb: 4, maxWidth: 560 }}>
            Real-time GPS tracking of ambulances and emergency cases, smart dispatch with optimized routing,
            automated case assignment and resource allocation, and instant multi-channel notifications.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <ButtonLink to="/signin" variant="contained" size="large" sx={{ px: 4 }}>Get Started</ButtonLink>
            <Button variant="outlined" size="large" onClick={scrollToFeatures}
              sx={{ px: 4, color: '#fff', borderColor: 'rgba(255,255,255,0.6)', '&:hover': { borderColor: '#fff', bgcolor: 'rgba(255,255,255,0.08)' } }}>
              Learn More
            </Button>
          </Stack>
        </Box>
        <Box sx={{ display: { xs: 'none', md: 'block' } }}>
          <AmbulanceIllustration />
        </Box>
      </Container>
    </Box>
  );
}
