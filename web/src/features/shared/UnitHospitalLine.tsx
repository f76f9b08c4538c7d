import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { type AssignmentDto, arrivalMinutes, arrivalSeconds, distanceMeters } from '../../api/contract';
import { queries } from '../../api/queries';
import { HANDOVER_BAND_COLORS, destinationText, handoverClock, handoverTargets } from '../../domain/handover';
import { stepTimeText } from './callLifeText';
import { useServerNow } from './useNow';

/**
 * A unit's hospital end on the board (issue 30): where it conveys ("To Royal General (Closest) ·
 * about 6 min", live from its latest position), then at the hospital the handover clock with its
 * band in words and colour ("Handover 16:02 · Past 15 min"), and once handed over for how long it took.
 */
export function UnitHospitalLine({ assignment: a }: { assignment: AssignmentDto }) {
  const now = useServerNow(1000);
  const config = useQuery(queries.config()).data;
  const transporting = a.status === 'transporting' && a.destination != null;
  // Only a conveying unit needs the fleet's positions and the hospitals' points (both cached, kept live).
  const fleet = useQuery({ ...queries.ambulances(), enabled: transporting }).data;
  const hospitals = useQuery({ ...queries.hospitals(), enabled: transporting }).data;
  if (!a.destination) return null;
  const clock = handoverClock(a, now, handoverTargets(config));
  let eta: number | null = a.destination_eta_s;
  if (transporting) {
    const at = fleet?.find((u) => u.id === a.ambulance_id)?.location;
    const h = hospitals?.find((x) => x.id === a.destination!.hospital_id);
    if (at && h && config) eta = arrivalSeconds(distanceMeters(at, h), config.eta_model);
  }
  return (
    <Box data-testid="unit-hospital" data-status={a.status} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Typography variant="body2" data-testid="unit-destination">
        {clock ? 'At' : 'To'} {destinationText(a.destination)}
        {!clock && eta != null && Number.isFinite(eta) && <> · about {arrivalMinutes(eta)} min</>}
      </Typography>
      {clock && (
        <Typography
          variant="body2"
          data-testid="handover-clock"
          data-band={clock.band}
          data-done={clock.done}
          sx={{ px: 0.75, borderRadius: 1, color: '#fff', bgcolor: HANDOVER_BAND_COLORS[clock.band], fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
        >
          {clock.done ? `Handed over ${stepTimeText(a.handover_at!, now)} after ${clock.clock}` : `Handover ${clock.clock}`} · {clock.words}
        </Typography>
      )}
    </Box>
  );
}
