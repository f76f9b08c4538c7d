import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { markerColor } from '../../domain/fleetRules';
import { PATIENT_COLOR } from './markerIcons';

/** The map's colours with their counts; a count is a dash until known (never a zero standing in for "unknown"). */
export function MapLegend({ counts, known, patients }: {
  counts: { available: number; busy: number; maintenance: number };
  /** The ambulances have loaded. */
  known: boolean;
  patients: number | null;
}) {
  return (
    <Box sx={{ p: 2, pb: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1 }}>Status</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }} data-testid="map-legend">
        <LegendItem label="Available" count={known ? counts.available : null} color={markerColor('available')} />
        <LegendItem label="Busy" count={known ? counts.busy : null} color={markerColor('busy')} />
        {counts.maintenance > 0 && <LegendItem label="Maintenance" count={counts.maintenance} color={markerColor('maintenance')} />}
        <LegendItem label="Patients" count={patients} color={PATIENT_COLOR} />
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1, lineHeight: 1.4 }}>
        Faded: no new position for 2 minutes. Select an ambulance to draw its last 30 minutes.
      </Typography>
    </Box>
  );
}

function LegendItem({ label, count, color }: { label: string; count: number | null; color: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }} data-testid={`legend-${label.toLowerCase()}`}>
      <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: color }} />
      <Typography variant="body2">{label}</Typography>
      <Typography variant="body2" sx={{ fontWeight: 800 }} aria-label={count == null ? 'Unknown' : undefined}>{count ?? '–'}</Typography>
    </Box>
  );
}
