import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { ButtonLink } from '../../layout/links';

export function ClosingCta() {
  return (
    <Box component="section" sx={{ py: { xs: 8, md: 12 } }}>
      <Container maxWidth="md" sx={{ textAlign: 'center' }}>
        <Typography variant="h3" component="h2" sx={{ fontSize: { xs: '2rem', md: '2.6rem' }, mb: 2 }}>
          Ready to transform your emergency response?
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          Bring your dispatchers, crews and fleet onto one live picture today.
        </Typography>
        <ButtonLink to="/signin" variant="contained" size="large" sx={{ px: 5, py: 1.5 }}>
          Get Started Now
        </ButtonLink>
      </Container>
    </Box>
  );
}
