import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { CapabilityIcon } from '../../shared/CapabilityChip';
import { capabilityHint, capabilityWords } from '../../shared/capabilityWords';
import { AMBULANCE_STATUS_OPTIONS, CAPABILITY_CHOICES, type AmbulanceForm } from './ambulanceForm';

/**
 * Add/Edit Ambulance: plate required, status (default available), capability (default ALS),
 * optional driver e-mail. With `statusOnly` (operators) the plate, capability and e-mail are
 * shown read-only.
 */
export function AmbulanceDialog({ open, mode, initial, saving, statusOnly, onCancel, onSave }: {
  open: boolean;
  mode: 'add' | 'edit';
  initial: AmbulanceForm;
  saving: boolean;
  statusOnly: boolean;
  onCancel: () => void;
  onSave: (form: AmbulanceForm) => void;
}) {
  const [form, setForm] = useState(initial);
  const set = (key: keyof AmbulanceForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form.license_plate.trim() || statusOnly) onSave(form);
  };
  const readOnly = { htmlInput: { readOnly: statusOnly }, inputLabel: { shrink: true } };
  const submitText = saving ? (mode === 'edit' ? 'Updating...' : 'Adding...') : mode === 'edit' ? 'Update Ambulance' : 'Add Ambulance';

  return (
    <Dialog open={open} onClose={saving ? undefined : onCancel} fullWidth maxWidth="xs" aria-labelledby="ambulance-dialog-title">
      <form onSubmit={submit}>
        <DialogTitle id="ambulance-dialog-title">{mode === 'edit' ? 'Edit Ambulance' : 'Add New Ambulance'}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2.5}>
            {statusOnly && <Alert severity="info">Operators can change only an ambulance's status.</Alert>}
            <TextField
              label="License Plate"
              placeholder="Enter license plate"
              value={form.license_plate}
              onChange={set('license_plate')}
              required={!statusOnly}
              autoFocus={!statusOnly}
              fullWidth
              variant={statusOnly ? 'filled' : 'outlined'}
              slotProps={readOnly}
            />
            <TextField select label="Status" value={form.status} onChange={set('status')} fullWidth autoFocus={statusOnly}>
              {AMBULANCE_STATUS_OPTIONS.map((o) => (
                // Busy comes from dispatching a case: a new ambulance cannot start busy.
                <MenuItem key={o.value} value={o.value} disabled={mode === 'add' && o.value === 'busy'}>{o.label}</MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Capability"
              value={form.capability}
              onChange={set('capability')}
              fullWidth
              variant={statusOnly ? 'filled' : 'outlined'}
              // The chosen one in words; its line of description under the field, not crammed into it.
              slotProps={{ select: { readOnly: statusOnly, renderValue: (v) => capabilityWords(v as string) } }}
              helperText={capabilityHint(form.capability)}
            >
              {CAPABILITY_CHOICES.map((c) => (
                <MenuItem key={c.value} value={c.value}>
                  <ListItemIcon><CapabilityIcon capability={c.value} /></ListItemIcon>
                  <ListItemText primary={c.label} secondary={c.description} />
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Driver Email"
              type="email"
              placeholder="driver@example.com (optional)"
              value={form.email}
              onChange={set('email')}
              fullWidth
              variant={statusOnly ? 'filled' : 'outlined'}
              slotProps={readOnly}
              helperText={statusOnly ? undefined : 'Tracking links for the crew are sent here'}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onCancel} disabled={saving} color="inherit">Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>{submitText}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
