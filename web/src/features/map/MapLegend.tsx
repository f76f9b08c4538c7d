import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { UnitStatus } from '../../api/contract';
import { UNIT_STATUS_COLORS } from '../../domain/callLife';
import { UnitStatusLegend } from '../fleet/UnitStatusLegend';
import { PATIENT_COLOR } from './markerIcons';

/**
 * The spec's status counts (available, busy) and, as the pins' colour key, the unit statuses
 * with their counts; a count is a dash until known (never a zero standing in for "unknown").
 * Busy has no swatch of its own: a busy pin takes the colour of its step.
 */
export function MapLegend({ counts, unitCounts, known, patients }: {
  counts: { available: number; busy: number; maintenance: number };
  unitCounts: Record<UnitStatus, number>;
  /** The ambulances have loaded. */
  known: boolean;
  patients: number | null;
}) {
  return (
    <Box sx={{ p: 2, pb: 1.5, borderBottom: 1, borderColor: 'divider', display: 'grid', gap: 1.25 }}>
      <Box>
        <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1 }}>Status</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }} data-testid="map-legend">
          <LegendItem label="Available" count={known ? counts.available : null} color={UNIT_STATUS_COLORS.available} />
          <LegendItem label="Busy" count={known ? counts.busy : null} />
          {counts.maintenance > 0 && <LegendItem label="Maintenance" count={counts.maintenance} color={UNIT_STATUS_COLORS.maintenance} />}
          <LegendItem label="Patients" count={patients} color={PATIENT_COLOR} />
        </Box>
      </Box>
      <UnitStatusLegend counts={known ? unitCounts : null} title="Unit status (pin colour)" dense />
      <Typography variant="caption" color="text.secondary" component="p" sx={{ lineHeight: 1.4 }}>
        A pin with a car is a response car that cannot convey. A pin with a red ! is still dispatched past the turnout time. Faded: no new position for 2 minutes. Select an ambulance to draw its last 30 minutes.
      </Typography>
    </Box>
  );
}

function LegendItem({ label, count, color }: { label: string; count: number | null; color?: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }} data-testid={`legend-${label.toLowerCase()}`}>
      {color && <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: color }} />}
      <Typography variant="body2">{label}</Typography>
      <Typography variant="body2" sx={{ fontWeight: 800 }} aria-label={count == null ? 'Unknown' : undefined}>{count ?? '–'}</Typography>
    </Box>
  );
}
