import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ClipboardEvent, type FormEvent } from 'react';
import { HOSPITAL_STATUSES, type HospitalStatus } from '../../../api/contract';
import {
  CAPABILITY_CHECKBOXES, HOSPITAL_STATUS_WORDS, type HospitalForm, hospitalFormProblems, pastedPair, toggleCapability,
} from './hospitalForm';

/**
 * Add/Edit Hospital: name and position required (a pair such as "17.385, 78.4867" pasted into
 * either coordinate fills both), address, what it can take, and its status: a diversion needs
 * its reason. An edit says who set the status last and when (`statusLine`).
 */
export function HospitalDialog({ open, mode, initial, statusLine, saving, onCancel, onSave }: {
  open: boolean;
  mode: 'add' | 'edit';
  initial: HospitalForm;
  statusLine?: string;
  saving: boolean;
  onCancel: () => void;
  onSave: (form: HospitalForm) => void;
}) {
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const problems = tried ? hospitalFormProblems(form) : {};
  const set = (key: 'name' | 'address' | 'latitude' | 'longitude' | 'status_reason') => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const pastePair = (e: ClipboardEvent<HTMLInputElement>) => {
    const pair = pastedPair(e.clipboardData.getData('text'));
    if (!pair) return;
    e.preventDefault();
    setForm((f) => ({ ...f, ...pair }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(hospitalFormProblems(form)).length === 0) onSave(form);
  };
  const submitText = saving ? (mode === 'edit' ? 'Updating...' : 'Adding...') : mode === 'edit' ? 'Update Hospital' : 'Add Hospital';
  const helper = (problem: string | undefined, hint?: string) => problem ?? hint;

  return (
    <Dialog open={open} onClose={saving ? undefined : onCancel} fullWidth maxWidth="sm" aria-labelledby="hospital-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="hospital-dialog-title">{mode === 'edit' ? 'Edit Hospital' : 'Add New Hospital'}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2.5}>
            <TextField
              label="Name"
              value={form.name}
              onChange={set('name')}
              required
              autoFocus
              fullWidth
              error={!!problems.name}
              helperText={problems.name}
            />
            <TextField label="Address" value={form.address} onChange={set('address')} fullWidth placeholder="Street, town (optional)" />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Latitude"
                value={form.latitude}
                onChange={set('latitude')}
                required
                fullWidth
                error={!!problems.latitude}
                helperText={helper(problems.latitude, 'e.g. 17.385')}
                slotProps={{ htmlInput: { inputMode: 'decimal', onPaste: pastePair } }}
              />
              <TextField
                label="Longitude"
                value={form.longitude}
                onChange={set('longitude')}
                required
                fullWidth
                error={!!problems.longitude}
                helperText={helper(problems.longitude, 'e.g. 78.4867')}
                slotProps={{ htmlInput: { inputMode: 'decimal', onPaste: pastePair } }}
              />
            </Stack>
            <FormControl component="fieldset" variant="standard">
              <FormLabel component="legend" sx={{ fontWeight: 600, mb: 0.5 }}>Capabilities</FormLabel>
              <FormGroup row sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {CAPABILITY_CHECKBOXES.map((c) => (
                  <FormControlLabel
                    key={c.value}
                    label={c.label}
                    control={(
                      <Checkbox
                        checked={form.capabilities.includes(c.value)}
                        onChange={(e) => setForm((f) => ({ ...f, capabilities: toggleCapability(f.capabilities, c.value, e.target.checked) }))}
                      />
                    )}
                  />
                ))}
              </FormGroup>
            </FormControl>
            <FormControl component="fieldset" variant="standard">
              <FormLabel component="legend" sx={{ fontWeight: 600, mb: 0.5 }}>Status</FormLabel>
              <RadioGroup
                row
                name="hospital-status"
                value={form.status}
                onChange={(e) => setForm((f) => ({ ...f, status: e.target.value as HospitalStatus }))}
              >
                {HOSPITAL_STATUSES.map((s) => <FormControlLabel key={s} value={s} control={<Radio />} label={HOSPITAL_STATUS_WORDS[s]} />)}
              </RadioGroup>
              {statusLine && <Typography variant="body2" color="text.secondary" data-testid="hospital-status-line">{statusLine}</Typography>}
            </FormControl>
            {form.status === 'diversion' && (
              <TextField
                label="Reason for diversion"
                value={form.status_reason}
                onChange={set('status_reason')}
                required
                fullWidth
                multiline
                minRows={2}
                error={!!problems.status_reason}
                helperText={helper(problems.status_reason, 'Crews and dispatchers see it, e.g. "CT scanner down"')}
                slotProps={{ htmlInput: { maxLength: 200 } }}
              />
            )}
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
