import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { SnackbarProvider } from 'notistack';
import { GlobalError } from './GlobalError';
import { createAppTheme } from './theme';

const theme = createAppTheme('light');

/**
 * MUI theme, baseline styles and toasts for every page except the bare public ones
 * (the patient's location page must not download MUI). Loaded lazily by the root route.
 */
export default function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider anchorOrigin={{ vertical: 'top', horizontal: 'right' }} autoHideDuration={5000} maxSnack={4}>
        {children}
      </SnackbarProvider>
    </ThemeProvider>
  );
}

/** The global error screen with the providers around it (for a failure of the root itself). */
export function ProvidedGlobalError({ error }: { error?: unknown }) {
  return (
    <AppProviders>
      <GlobalError error={error} />
    </AppProviders>
  );
}
