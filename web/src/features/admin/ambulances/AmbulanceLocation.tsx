import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { AmbulanceLocationDto } from '../../../api/contract';
import { queries } from '../../../api/queries';
import { AmbulanceFixLines } from '../../fleet/AmbulanceFixLines';

const COORDINATES_ONLY = /^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * SPEC §2: the place name (or Unknown Location) with coordinates to 4 decimals, or
 * Coordinates unavailable, or Location not set; then the fix's time, source and battery. A position without a stored name is named
 * through the server's cached geocoder; a bare 'lat, lon' answer counts as no name.
 */
export function AmbulanceLocation({ location }: { location: AmbulanceLocationDto | null }) {
  const located = location != null && isNumber(location.latitude) && isNumber(location.longitude);
  const lookup = useQuery({
    ...queries.placeName(location?.latitude ?? 0, location?.longitude ?? 0),
    enabled: located && !location?.placeName,
  });
  if (!location) return <Typography variant="body2" color="text.secondary">Location not set</Typography>;

  const looked = lookup.data && !COORDINATES_ONLY.test(lookup.data) ? lookup.data : null;
  const name = location.placeName || looked || 'Unknown Location';
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>{name}</Typography>
      <Typography variant="caption" color="text.secondary">
        {located ? `${location.latitude.toFixed(4)}, ${location.longitude.toFixed(4)}` : 'Coordinates unavailable'}
      </Typography>
      <AmbulanceFixLines ambulance={{ location }} />
    </>
  );
}
