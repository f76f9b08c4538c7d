import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import type { AssignmentDto } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { useApiMutation } from '../../api/useApiMutation';
import { useToast } from '../../layout/toast';
import { STAND_DOWN_MAX, standDownQuestion, standDownReasonError } from './callUnits';

const FAIL_TEXT = 'Could not stand the unit down';

/**
 * Stands one unit down before it reaches the scene, with a required reason (on the call's timeline).
 * The server's refusal (409: the unit reached the scene meanwhile) stays in the dialog in its words.
 * `onExited` runs once the dialog has gone, so the caller can place the focus (its opener is gone).
 */
export function StandDownDialog({ caseId, assignment, othersOpen, open, onClose, onExited }: {
  caseId: string;
  assignment: AssignmentDto;
  /** How many other units stay on the call. */
  othersOpen: number;
  open: boolean;
  onClose: () => void;
  onExited?: () => void;
}) {
  const toast = useToast();
  const titleId = useId();
  const textId = useId();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const question = standDownQuestion(assignment, othersOpen);
  const stand = useApiMutation(mutations.standDown, {
    onSuccess: (r) => {
      toast(`${r.assignment.license_plate ?? 'The unit'} stood down`, 'success');
      onClose();
    },
  });
  const reasonError = touched ? standDownReasonError(reason) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (standDownReasonError(reason) || stand.isPending) return;
    stand.mutate({ caseId, assignmentId: assignment.id, reason: reason.trim() });
  };
  const refusal = stand.isError ? (stand.error instanceof ApiError && stand.error.serverError ? stand.error.serverError : FAIL_TEXT) : null;

  return (
    <Dialog
      open={open}
      onClose={stand.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onExited } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{question.title}</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId} sx={{ mb: 2 }}>{question.text}</DialogContentText>
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            fullWidth
            multiline
            minRows={2}
            autoFocus
            error={Boolean(reasonError)}
            helperText={reasonError ?? 'e.g. the first crew is enough; cancelled by the caller'}
            slotProps={{ htmlInput: { maxLength: STAND_DOWN_MAX } }}
          />
          {refusal && <Alert severity="error" role="alert" sx={{ mt: 2 }} data-testid="stand-down-refusal">{refusal}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={stand.isPending}>Cancel</Button>
          <Button type="submit" variant="contained" color="warning" disabled={stand.isPending}>
            {stand.isPending ? 'Standing down…' : question.confirm}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
