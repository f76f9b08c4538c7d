import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ErrorIcon } from './icons';

/** The Global error screen of SPEC §2, shown for any unhandled rendering failure. */
export function GlobalError({ error }: { error?: unknown }) {
  useEffect(() => {
    if (error) console.error(error);
  }, [error]);

  return (
    <Box role="alert" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Paper variant="outlined" sx={{ p: { xs: 4, sm: 6 }, maxWidth: 440, textAlign: 'center' }}>
        <ErrorIcon color="error" sx={{ fontSize: 56, mb: 1 }} />
        <Typography variant="h5" component="h1" gutterBottom>
          Something went wrong
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Please refresh the page to try again
        </Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
      </Paper>
    </Box>
  );
}
