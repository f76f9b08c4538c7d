import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MouseEvent } from 'react';
import { Logo } from '../../layout/Logo';

// The footer links lead nowhere for now.
const stay = (event: MouseEvent) => event.preventDefault();

export function LandingFooter() {
  return (
    <Box component="footer" sx={{ bgcolor: '#0f1b2d', color: 'rgba(255,255,255,0.8)', py: 5 }}>
      <Container maxWidth="lg" sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 3, alignItems: 'center', justifyContent: 'space-between' }}>
        <Logo size={30} color="#fff" />
        <Stack direction="row" spacing={3} component="nav" aria-label="Footer">
          {['Privacy', 'Terms', 'Support'].map((label) => (
            <Link key={label} href="#" onClick={stay} color="inherit" underline="hover">{label}</Link>
          ))}
        </Stack>
        <Typography variant="body2">© 2024 Lifeline. All rights reserved.</Typography>
      </Container>
    </Box>
  );
}
