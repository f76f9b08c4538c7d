import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AmbulanceDto } from '../../api/contract';

/** Assign Ambulance: only available ones; says so when there are none. */
export function AmbulanceSelect({ value, onChange, available, loading, disabled }: {
  value: string; onChange: (id: string) => void; available: AmbulanceDto[]; loading: boolean; disabled: boolean;
}) {
  const none = !loading && available.length === 0;
  const plateOf = (id: string) => available.find((a) => String(a.id) === id)?.license_plate ?? '';
  return (
    <TextField
      select
      required
      fullWidth
      label="Assign Ambulance"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled || none || loading}
      error={none}
      helperText={none ? 'No ambulances available' : loading ? 'Loading ambulances...' : `${available.length} available`}
      slotProps={{ select: { renderValue: (v) => plateOf(String(v)) } }}
    >
      {available.map((a) => (
        <MenuItem key={a.id} value={String(a.id)}>
          <ListItemText primary={a.license_plate} secondary={a.location?.placeName ?? undefined} />
        </MenuItem>
      ))}
    </TextField>
  );
}
