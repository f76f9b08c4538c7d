import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { PRIORITIES, type AmbulanceDto, type DispatchSuggestion, type IntakeLocationDto, type LatLon } from '../../../api/contract';
import { queries } from '../../../api/queries';
import { priorityInfo, priorityTag } from '../../../domain/callLife';
import { LocationField } from '../../location/LocationField';
import { STATUS_OPTIONS, ambulanceOptions, type EditCaseForm } from './editCaseForm';

/** The fields of the Edit Case dialog: SPEC's five, the call's priority and its location at intake. */
export function EditCaseFields({ form, onChange, onIntake, ambulances, currentAmbulanceId, currentPlate, near = null, suggestions = null, disabled }: {
  form: EditCaseForm;
  onChange: (key: Exclude<keyof EditCaseForm, 'intake' | 'intakeChanged'>, value: string) => void;
  /** The location box changed or cleared the intake location. */
  onIntake: (intake: IntakeLocationDto | null) => void;
  ambulances: AmbulanceDto[];
  currentAmbulanceId: number | null;
  currentPlate: string | null;
  /** The case's location, when known: the available ambulances are then listed nearest first. */
  near?: LatLon | null;
  /** The server's ranking by arrival for that location: the list then follows it. */
  suggestions?: readonly DispatchSuggestion[] | null;
  disabled: boolean;
}) {
  const set = (key: Exclude<keyof EditCaseForm, 'intake' | 'intakeChanged'>) => (e: { target: { value: string } }) => onChange(key, e.target.value);
  const selectedId = form.ambulance_id === '' ? null : Number(form.ambulance_id);
  const options = ambulanceOptions(ambulances, currentAmbulanceId, currentPlate, near, selectedId, near ? suggestions : null);
  const config = useQuery(queries.config());
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
      <Grid size={12}>
        <LocationField value={form.intake ?? null} onChange={onIntake} disabled={disabled} emptyText="No location was taken at intake." />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField select label="Case Status" value={form.status || 'active'} onChange={set('status')} required fullWidth disabled={disabled}>
          {STATUS_OPTIONS.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField select label="Priority" value={form.priority ?? ''} onChange={set('priority')} required fullWidth disabled={disabled}>
          {PRIORITIES.map((p) => <MenuItem key={p} value={String(p)}>{`${priorityTag(p)} ${priorityInfo(config.data, p).label}`}</MenuItem>)}
        </TextField>
      </Grid>
      {/* A whole row, and the chosen label wraps rather than being cut: 'TS09 EA 1003 — 1.2 km (Currently assigned)' is read in full. */}
      <Grid size={12}>
        <TextField
          select
          label="Assigned Ambulance"
          value={form.ambulance_id}
          onChange={set('ambulance_id')}
          fullWidth
          disabled={disabled}
          helperText={near
            ? (suggestions ? 'Ambulances that can take the case, quickest to the patient first' : 'Ambulances that can take the case, nearest to the patient first')
            : 'Ambulances that can take the case: the available ones and the current one'}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ '& .MuiSelect-select': { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
        >
          <MenuItem value="">Select an ambulance</MenuItem>
          {options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
      </Grid>
    </Grid>
  );
}
