import ListItemText from '@mui/material/ListItemText';
import { useMemo, type Ref } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AmbulanceDto, LatLon } from '../../api/contract';
import { availableByDistance, plateWithDistance } from '../../domain/nearest';
import { typeAheadSpaceProps } from './typeAheadSpace';

/**
 * Assign Ambulance: only available ones; says so when there are none. With a known patient
 * location (`near`) they are listed nearest first, each with its distance; without one, as
 * the server lists them.
 */
export function AmbulanceSelect({ value, onChange, available, loading, disabled, near = null, error, inputRef }: {
  value: string; onChange: (id: string) => void; available: AmbulanceDto[]; loading: boolean; disabled: boolean; near?: LatLon | null;
  /** Why the choice is refused (after a submit), shown in place of the count. */
  error?: string;
  /** Receives the select's handle (its focus() focuses the select). */
  inputRef?: Ref<{ focus: () => void }>;
}) {
  const listProps = useMemo(() => typeAheadSpaceProps(), []);
  const none = !loading && available.length === 0;
  const ranked = availableByDistance(available, near);
  const labelOf = (id: string) => {
    const r = ranked.find((x) => String(x.ambulance.id) === id);
    return r ? plateWithDistance(r.ambulance.license_plate, r.meters) : '';
  };
  return (
    <TextField
      select
      required
      fullWidth
      label="Assign Ambulance"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled || none || loading}
      error={none || Boolean(error)}
      helperText={none ? 'No ambulances available' : loading ? 'Loading ambulances...' : error ?? `${available.length} available${near ? ', nearest first' : ''}`}
      inputRef={inputRef}
      slotProps={{ select: { renderValue: (v) => labelOf(String(v)), MenuProps: { slotProps: { list: listProps } } } }}
    >
      {ranked.map(({ ambulance: a, meters }) => (
        <MenuItem key={a.id} value={String(a.id)}>
          <ListItemText primary={plateWithDistance(a.license_plate, meters)} secondary={a.location?.placeName ?? undefined} />
        </MenuItem>
      ))}
    </TextField>
  );
}
