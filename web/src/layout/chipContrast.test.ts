import { getContrastRatio, type Theme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { UNIT_STATUS_COLORS } from '../domain/callLife';
import { markerColor } from '../domain/fleetRules';
import { createAppTheme } from './theme';

/**
 * Every chip the app can draw keeps its label at WCAG AA (4.5:1) in both modes, on both surfaces
 * a chip sits on (a card or table's paper, the page's background). The pairs follow MUI's Chip
 * styles: filled = contrastText on main, outlined = main on the surface, the default colour =
 * text.primary on action.selected (filled) or on the surface (outlined). Colours with alpha are
 * blended first, as a browser (and axe) does: MUI's own getContrastRatio ignores alpha.
 */

const AA = 4.5;
const COLOURS = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;

type Rgba = [number, number, number, number];

function parse(colour: string): Rgba {
  const fn = /^rgba?\(([^)]+)\)$/.exec(colour);
  if (fn) {
    const [r, g, b, a = 1] = fn[1].split(',').map(Number);
    return [r, g, b, a];
  }
  let hex = colour.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((d) => d + d).join('');
  if (!/^[0-9a-f]{6}$/i.test(hex)) throw new Error(`not a colour: ${colour}`);
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)).concat(1) as Rgba;
}

/** `top` painted over the opaque `under`, as an opaque rgb(). */
function over(top: string, under: string): string {
  const [r, g, b, a] = parse(top);
  const [R, G, B] = parse(under);
  const mix = (x: number, y: number) => Math.round(x * a + y * (1 - a));
  return `rgb(${mix(r, R)}, ${mix(g, G)}, ${mix(b, B)})`;
}

/** The label's contrast on its fill, both drawn over the surface. */
function ratio(text: string, fill: string, surface: string): number {
  const bg = over(fill, surface);
  return getContrastRatio(over(text, bg), bg);
}

type Pair = { what: string; text: string; fill: string };

/** The (label, fill) pair of every colour and variant of a chip under this theme. */
function chipPairs(theme: Theme): Pair[] {
  const p = theme.palette;
  return [
    ...COLOURS.flatMap((c) => [
      { what: `${c} filled`, text: p[c].contrastText, fill: p[c].main },
      { what: `${c} outlined`, text: p[c].main, fill: 'rgba(0, 0, 0, 0)' },
    ]),
    { what: 'default filled', text: p.text.primary, fill: p.action.selected },
    { what: 'default outlined', text: p.text.primary, fill: 'rgba(0, 0, 0, 0)' },
  ];
}

const failures = (mode: 'light' | 'dark') => {
  const theme = createAppTheme(mode);
  const surfaces = { paper: theme.palette.background.paper, page: theme.palette.background.default };
  return chipPairs(theme).flatMap(({ what, text, fill }) =>
    Object.entries(surfaces)
      .map(([name, surface]) => ({ pair: `${what} on ${name}`, ratio: Number(ratio(text, fill, surface).toFixed(2)) }))
      .filter((r) => r.ratio < AA));
};

describe('chip colours', () => {
  it.each(['light', 'dark'] as const)('every colour and variant reaches 4.5:1 in %s mode', (mode) => {
    expect(failures(mode)).toEqual([]);
  });

  it('the contrast arithmetic catches what the theme used to have', () => {
    // MUI's info blue on the light page background, and a faded Live chip: both below AA.
    expect(ratio('#0277bd', 'rgba(0, 0, 0, 0)', '#f4f6f9')).toBeLessThan(AA);
    expect(ratio('#fff', '#468c49', '#ffffff')).toBeLessThan(AA); // axe's 4.11:1
    // Alpha counts: MUI's dark label on a mid grey reads as 0.87 black, not black.
    expect(ratio('rgba(0, 0, 0, 0.87)', '#808080', '#ffffff')).toBeLessThan(getContrastRatio('#000', '#808080'));
  });

  it('the fixed unit and marker colours carry a white label at 4.5:1', () => {
    const fills = { ...UNIT_STATUS_COLORS, unknown: markerColor('some other status') };
    const low = Object.entries(fills).filter(([, fill]) => ratio('#fff', fill, '#ffffff') < AA);
    expect(low).toEqual([]);
  });

  it.each(['light', 'dark'] as const)('a chip switches colour at once in %s mode (no fade for axe or an eye to catch mid-way)', (mode) => {
    const theme = createAppTheme(mode);
    const root = theme.components?.MuiChip?.styleOverrides?.root as ((props: { theme: Theme }) => { transition?: string }) | undefined;
    expect(root, 'the theme overrides MuiChip').toBeTypeOf('function');
    const { transition = '' } = root!({ theme });
    expect(transition).not.toMatch(/background|color|all/);
  });
});
