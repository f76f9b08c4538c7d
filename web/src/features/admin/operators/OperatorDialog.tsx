import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState, type FormEvent, type ReactNode } from 'react';
import { GENDER_OPTIONS, SHIFT_OPTIONS, missingFields, type OperatorForm } from './operatorForm';

/** Add/Edit Operator: required name, email, role, shift and gender; optional address, location, phone. */
export function OperatorDialog({ open, mode, initial, saving, onCancel, onSave, children }: {
  open: boolean;
  mode: 'add' | 'edit';
  initial: OperatorForm;
  saving: boolean;
  onCancel: () => void;
  onSave: (form: OperatorForm) => void;
  /** Below the fields: what an edit shows about the account (its sign-in limits). */
  children?: ReactNode;
}) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const missing = tried ? missingFields(form) : [];
  const set = (key: keyof OperatorForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const error = (key: keyof OperatorForm) => missing.includes(key);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (missingFields(form).length === 0) onSave(form);
  };

  const title = mode === 'add' ? 'Add Operator' : 'Edit Operator';
  return (
    <Dialog open={open} onClose={saving ? undefined : onCancel} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="operator-dialog-title">
      <form onSubmit={submit} noValidate={false}>
        <DialogTitle id="operator-dialog-title">{title}</DialogTitle>
        <DialogContent dividers>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Name" value={form.name} onChange={set('name')} required fullWidth autoFocus error={error('name')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Email" type="email" value={form.email} onChange={set('email')} required fullWidth error={error('email')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField select label="Role" value={form.role} onChange={set('role')} required fullWidth>
                <MenuItem value="operator">Operator</MenuItem>
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField select label="Shift" value={form.shift} onChange={set('shift')} required fullWidth error={error('shift')} helperText={error('shift') ? 'Choose a shift' : undefined}>
                {SHIFT_OPTIONS.map((o) => <MenuItem key={o.code} value={o.code}>{o.label}</MenuItem>)}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField select label="Gender" value={form.gender} onChange={set('gender')} required fullWidth error={error('gender')} helperText={error('gender') ? 'Choose a gender' : undefined}>
                {GENDER_OPTIONS.map((o) => <MenuItem key={o.code} value={o.code}>{o.label}</MenuItem>)}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Phone" type="tel" value={form.phone} onChange={set('phone')} fullWidth helperText="A phone number is needed to sign in" />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Location" value={form.location} onChange={set('location')} fullWidth />
            </Grid>
            <Grid size={12}>
              <TextField label="Address" value={form.address} onChange={set('address')} fullWidth multiline minRows={2} />
            </Grid>
          </Grid>
          {children}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onCancel} disabled={saving} color="inherit">Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>{saving ? 'Saving...' : 'Save'}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
