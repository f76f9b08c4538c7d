import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { UnitStatus } from '../../api/contract';
import { UNIT_STATUS_COLORS, UNIT_STATUS_LABELS } from '../../domain/callLife';
import { UNIT_STATUS_ORDER } from './unitStatus';

/**
 * The unit statuses' colours, each named (colour is never the only cue), with a count per
 * status once known (a dash until then, never a zero standing in for "unknown").
 */
export function UnitStatusLegend({ counts, title = 'Unit status', dense = false }: {
  counts: Record<UnitStatus, number> | null;
  title?: string;
  dense?: boolean;
}) {
  const id = `unit-legend-title${dense ? '-dense' : ''}`;
  return (
    <Box component="section" aria-labelledby={id} data-testid="unit-status-legend">
      <Typography id={id} variant="subtitle2" sx={{ fontWeight: 700, mb: 0.75 }}>{title}</Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', columnGap: dense ? 1.5 : 2, rowGap: 0.5 }}>
        {UNIT_STATUS_ORDER.map((s) => (
          <Box component="li" key={s} data-testid={`unit-legend-${s}`} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
            <Box component="span" aria-hidden sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: UNIT_STATUS_COLORS[s], flexShrink: 0 }} />
            <Typography variant="body2">{UNIT_STATUS_LABELS[s]}</Typography>
            <Typography variant="body2" sx={{ fontWeight: 800 }} aria-label={counts == null ? 'Unknown' : undefined}>{counts ? counts[s] : '–'}</Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
