import { createTheme, type PaletteMode } from '@mui/material/styles';

/**
 * Lifeline's look: emergency red for action, deep navy for structure, calm neutrals.
 * Every colour that is used as text (a Stale chip, a text button, a link, a chip's label on its
 * fill) meets WCAG AA (4.5:1) on the paper and page backgrounds of its mode: MUI's default
 * orange (#ed6c02, 3.1:1 on white) and its reds on the dark backgrounds (3.3:1) do not, and
 * `contrastThreshold: 4.5` makes MUI pick a chip's or button's label colour by the same rule.
 * chipContrast.test.ts checks every chip colour and variant in both modes (MUI's info blue
 * #0277bd is 4.4:1 on the light page background, so info is #0369a1).
 */
export function createAppTheme(mode: PaletteMode = 'light') {
  const dark = mode === 'dark';
  const focusRing = dark ? '#90caf9' : '#1d3557';
  return createTheme({
    palette: {
      mode,
      contrastThreshold: 4.5,
      primary: dark
        ? { main: '#ff6b6b', dark: '#d32f2f', light: '#ff8a80' }
        : { main: '#d32f2f', dark: '#a51d1d', light: '#ef5350', contrastText: '#fff' },
      ...(dark
        ? { error: { main: '#ff6b6b' } }
        : { warning: { main: '#b45309' }, info: { main: '#0369a1' } }),
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
      // Subtitles are styled text, not headings: MUI's default <h6> breaks a screen's heading order.
      MuiTypography: { defaultProps: { variantMapping: { subtitle1: 'p', subtitle2: 'p' } } },
      // A clear ring on whatever the keyboard reached (MUI's own cue is a faint tint or ripple):
      // dark navy on the light theme, light blue on the dark one, 3:1 or more against both.
      MuiButtonBase: {
        styleOverrides: {
          root: { '&.Mui-focusVisible': { outline: `3px solid ${focusRing}`, outlineOffset: 2 } },
        },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
      // A spinner always sits beside words that say what is loading (a button's label, a status
      // text, a labelled role=status box): to a screen reader it is noise, and unnamed it fails axe.
      MuiCircularProgress: { defaultProps: { 'aria-hidden': true } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      // A chip's colour is a state (Live, Reconnecting, a case's status): it changes at once. MUI
      // fades the fill while the label's colour jumps, so for 225 ms the label stood on an
      // in-between fill (white on #468c49, 4.1:1, when the header's chip turned Live).
      MuiChip: { styleOverrides: { root: ({ theme }) => ({ transition: theme.transitions.create('box-shadow') }) } },
      MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
    },
  });
}
