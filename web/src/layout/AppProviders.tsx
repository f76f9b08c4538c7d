import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import { SnackbarProvider } from 'notistack';
import { GlobalError } from './GlobalError';
import { createAppTheme } from './theme';

const theme = createAppTheme('light');

/**
 * Top toasts start below the app bar (64 px high at most), so they never cover the header's
 * user menu. Two classes: stronger than notistack's own one-class `top`.
 */
const BELOW_HEADER = 'toasts-below-header';
/**
 * notistack's own success, warning and info greens, oranges and blues carry white text at
 * about 3:1; these (the theme's own tones) reach WCAG AA's 4.5:1. Error's red already does.
 */
const TOAST_TONES = { success: '#2e7d32', warning: '#b45309', info: '#0277bd' } as const;
const toastStyles = (
  <GlobalStyles
    styles={{
      [`.notistack-SnackbarContainer.${BELOW_HEADER}`]: { top: 72 },
      ...Object.fromEntries(Object.entries(TOAST_TONES).map(([tone, color]) => [`.notistack-MuiContent.notistack-MuiContent-${tone}`, { backgroundColor: color }])),
    }}
  />
);

/**
 * MUI theme, baseline styles and toasts for every page except the bare public ones
 * (the patient's location page must not download MUI). Loaded lazily by the root route.
 */
export default function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {toastStyles}
      {/* preventDuplicate: a text already on screen is not stacked again, anywhere in the app. */}
      <SnackbarProvider
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        autoHideDuration={5000}
        maxSnack={4}
        preventDuplicate
        classes={{ containerAnchorOriginTopRight: BELOW_HEADER }}
      >
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
