import { createTheme, type PaletteMode } from '@mui/material/styles';

/** Lifeline's look: emergency red for action, deep navy for structure, calm neutrals. */
export function createAppTheme(mode: PaletteMode = 'light') {
  const dark = mode === 'dark';
  return createTheme({
    palette: {
      mode,
      primary: { main: '#d32f2f', dark: '#a51d1d', light: '#ef5350', contrastText: '#fff' },
      secondary: { main: dark ? '#90caf9' : '#1d3557', contrastText: dark ? '#0b1220' : '#fff' },
      background: dark
        ? { default: '#0f1620', paper: '#17212e' }
        : { default: '#f4f6f9', paper: '#ffffff' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontWeight: 800 },
      h2: { fontWeight: 800 },
      h3: { fontWeight: 700 },
      h4: { fontWeight: 700 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
    },
  });
}
