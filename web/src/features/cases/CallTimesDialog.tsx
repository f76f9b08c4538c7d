import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { CallTimes } from '../shared/CallTimes';

/** A call's recorded times from the board, where a dispatcher corrects one with a reason. */
export function CallTimesDialog({ caseId, name, onClose }: { caseId: string; name: string; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Times of the call of {name}</DialogTitle>
      <DialogContent dividers>
        <CallTimes caseId={caseId} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
