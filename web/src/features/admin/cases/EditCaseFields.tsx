import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AmbulanceDto } from '../../../api/contract';
import { STATUS_OPTIONS, byPlate, type EditCaseForm } from './editCaseForm';

/** The five fields of the Edit Case dialog. */
export function EditCaseFields({ form, onChange, ambulances, currentAmbulanceId, currentPlate, disabled }: {
  form: EditCaseForm;
  onChange: (key: keyof EditCaseForm, value: string) => void;
  ambulances: AmbulanceDto[];
  currentAmbulanceId: number | null;
  currentPlate: string | null;
  disabled: boolean;
}) {
  const set = (key: keyof EditCaseForm) => (e: { target: { value: string } }) => onChange(key, e.target.value);
  // A case can hold an ambulance the list no longer has; keep it selectable so the select stays valid.
  const missingCurrent = currentAmbulanceId != null && !ambulances.some((a) => a.id === currentAmbulanceId);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField label="Patient Name" value={form.patientName} onChange={set('patientName')} fullWidth disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField label="Email Address" type="email" value={form.email} onChange={set('email')} fullWidth disabled={disabled} />
      </Grid>
      <Grid size={12}>
        <TextField label="Description" placeholder="Emergency description" value={form.description} onChange={set('description')} fullWidth multiline minRows={2} disabled={disabled} />
      </Grid>
      <Grid size={{ xs: 12, sm: 5 }}>
        <TextField select label="Case Status" value={form.status || 'active'} onChange={set('status')} required fullWidth disabled={disabled}>
          {STATUS_OPTIONS.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 7 }}>
        <TextField
          select
          label="Assigned Ambulance"
          value={form.ambulance_id}
          onChange={set('ambulance_id')}
          fullWidth
          disabled={disabled}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Select an ambulance</MenuItem>
          {missingCurrent && <MenuItem value={String(currentAmbulanceId)}>{`${currentPlate ?? `#${currentAmbulanceId}`} (Currently assigned)`}</MenuItem>}
          {byPlate(ambulances).map((a) => (
            <MenuItem key={a.id} value={String(a.id)}>
              {a.id === currentAmbulanceId ? `${a.license_plate} (Currently assigned)` : a.license_plate}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
    </Grid>
  );
}
