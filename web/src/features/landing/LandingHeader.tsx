import AppBar from '@mui/material/AppBar';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import { ButtonLink } from '../../layout/links';
import { Logo } from '../../layout/Logo';

export function LandingHeader() {
  return (
    <AppBar position="sticky" sx={{ bgcolor: 'rgba(255,255,255,0.92)', backdropFilter: 'blur(8px)', borderBottom: 1, borderColor: 'divider' }}>
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ justifyContent: 'space-between' }}>
          <Logo size={34} />
          <ButtonLink to="/signin" variant="contained">Sign In</ButtonLink>
        </Toolbar>
      </Container>
    </AppBar>
  );
}
