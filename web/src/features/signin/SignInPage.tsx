import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link } from '@tanstack/react-router';
import { Logo } from '../../layout/Logo';
import { AmbulanceIllustration } from './AmbulanceIllustration';
import { SignInForm } from './SignInForm';

/** /signin and /signInPage: staff sign in with e-mail, name and phone. */
export function SignInPage() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, bgcolor: 'background.default' }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', gap: 4, p: { xs: 3, md: 6 },
        background: 'linear-gradient(150deg, #1d3557 0%, #26466f 60%, #a51d1d 140%)', color: '#fff' }}>
        <AmbulanceIllustration />
        <Box sx={{ textAlign: 'center', maxWidth: 440, mx: 'auto', display: { xs: 'none', md: 'block' } }}>
          <Typography variant="h4" component="p" gutterBottom>Help is on the way</Typography>
          <Typography sx={{ opacity: 0.85 }}>
            Register emergencies, dispatch the nearest ambulance and follow every crew in real time.
          </Typography>
        </Box>
      </Box>
      <Box sx={{ display: 'grid', placeItems: 'center', p: { xs: 2, sm: 4 } }}>
        <Paper variant="outlined" sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 5 } }}>
          <Box component={Link} to="/" sx={{ display: 'inline-flex', textDecoration: 'none', color: 'text.primary', mb: 3 }}>
            <Logo size={40} />
          </Box>
          <Typography variant="h5" component="h1" gutterBottom>Sign in to Lifeline</Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            Enter your staff details to reach your dashboard.
          </Typography>
          <SignInForm />
        </Paper>
      </Box>
    </Box>
  );
}
