import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

const STATS = [
  { value: '24/7', label: 'Emergency Support' },
  { value: '98%', label: 'Success Rate' },
  { value: '<3 min', label: 'Average Response' },
];

export function ImpactBand() {
  return (
    <Box component="section" aria-labelledby="impact-title" sx={{ bgcolor: '#1d3557', color: '#fff', py: { xs: 8, md: 10 } }}>
      <Container maxWidth="lg">
        <Typography id="impact-title" variant="h3" component="h2" align="center" sx={{ fontSize: { xs: '2rem', md: '2.6rem' }, mb: 1.5 }}>
          Proven Impact
        </Typography>
        <Typography align="center" sx={{ opacity: 0.8, mb: 6 }}>
          Round-the-clock support, a 98% success rate and an average response under 3 minutes.
        </Typography>
        <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, textAlign: 'center' }}>
          {STATS.map((stat) => (
            <Box key={stat.label}>
              <Typography sx={{ fontSize: { xs: '2.8rem', md: '3.6rem' }, fontWeight: 800, color: '#ff8a80', lineHeight: 1.1 }}>
                {stat.value}
              </Typography>
              <Typography sx={{ opacity: 0.85, fontWeight: 500 }}>{stat.label}</Typography>
            </Box>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
