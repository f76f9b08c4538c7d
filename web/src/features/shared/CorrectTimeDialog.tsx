import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import type { AssignmentDto, TimedStep } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { useApiMutation } from '../../api/useApiMutation';
import { useToast } from '../../layout/toast';
import { fromLocalInput, stepTimeName, toLocalInput } from './callLifeText';

/**
 * Corrects one recorded time of an assignment, with a required reason (on the timeline with who
 * made it). The server keeps the times in order; its refusal (422) is shown here as it words it.
 */
export function CorrectTimeDialog({ caseId, assignment, step, at, onClose }: {
  caseId: string;
  assignment: AssignmentDto;
  step: TimedStep;
  at: string;
  onClose: () => void;
}) {
  const toast = useToast();
  const titleId = useId();
  const [time, setTime] = useState(() => toLocalInput(at));
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const { name, nemsis } = stepTimeName(step);
  const save = useApiMutation(mutations.correctTime, {
    onSuccess: () => {
      toast(`${name} time corrected`, 'success');
      onClose();
    },
  });
  const parsed = fromLocalInput(time);
  const timeError = touched && !parsed ? 'Enter the time' : undefined;
  const reasonError = touched && !reason.trim() ? 'Say why the time is corrected' : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // React bubbles events through portals: the Edit Case form around this dialog must not submit too.
    e.stopPropagation();
    setTouched(true);
    if (!parsed || !reason.trim() || save.isPending) return;
    save.mutate({ caseId, assignmentId: assignment.id, body: { step, at: parsed, reason: reason.trim() } });
  };
  const refusal = save.isError
    ? (save.error instanceof ApiError && save.error.serverError ? save.error.serverError : 'Could not correct the time')
    : null;

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Correct {name} time</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={`${name} (${nemsis})${assignment.license_plate ? ` — ${assignment.license_plate}` : ''}`}
              type="datetime-local"
              value={time}
              onChange={(e) => setTime(e.target.value)}
              required
              error={Boolean(timeError)}
              helperText={timeError}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
            />
            <TextField
              label="Reason"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required
              multiline
              minRows={2}
              error={Boolean(reasonError)}
              helperText={reasonError ?? 'e.g. the crew reported on scene by radio before pressing'}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            {refusal && <Alert severity="error" role="alert">{refusal}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={save.isPending}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>{save.isPending ? 'Processing...' : 'Correct time'}</Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
