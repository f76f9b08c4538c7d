import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { ApiError } from '../../api/client';
import type { AssignmentStatus, UnitStep } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { useApiMutation } from '../../api/useApiMutation';
import { nextUnitStep, stepsAhead } from '../../domain/callLife';
import { ExpandMoreIcon } from '../../layout/icons';
import { useToast } from '../../layout/toast';
import { stepActionText, stepButtonText } from './callLifeText';

const FAIL_TEXT = 'Could not change the unit status';

/**
 * A unit's next step from the board, without the mouse: "Next: En route" (Tab, then Enter or
 * Space) and a menu of every step still ahead (arrow keys; a step may be skipped). Clear asks
 * first: it frees the ambulance and resolves the call. The server's refusal (409: someone else
 * moved the unit meanwhile) is shown as it words it.
 */
export function UnitStepControl({ ambulanceId, plate, status }: { ambulanceId: number; plate: string | null; status: AssignmentStatus }) {
  const toast = useToast();
  const menuId = useId();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = plate ?? `Ambulance #${ambulanceId}`;
  const set = useApiMutation(mutations.setUnitStatus, {
    onError: (error) => toast(error instanceof ApiError && error.serverError ? error.serverError : FAIL_TEXT, 'error'),
  });
  const next = nextUnitStep(status);
  const ahead = stepsAhead(status);
  if (!next) return null;

  // Pressing while a change is on its way does nothing: disabling the button would drop the keyboard's focus.
  const choose = (step: UnitStep) => {
    setMenuAnchor(null);
    if (set.isPending) return;
    if (step === 'cleared') setConfirming(true);
    else set.mutate({ ambulanceId, body: { status: step } });
  };
  const clear = () => {
    setConfirming(false);
    set.mutate({ ambulanceId, body: { status: 'cleared' } });
  };

  return (
    <Box sx={{ display: 'flex', gap: 1 }} data-testid="unit-step-control" aria-busy={set.isPending}>
      <Button
        variant="contained"
        color="secondary"
        size="small"
        onClick={() => choose(next)}
        aria-label={`${stepButtonText(next)} for ${name}`}
        data-board-action="next"
        sx={{ flex: 1 }}
      >
        {stepButtonText(next)}
      </Button>
      <Button
        variant="outlined"
        color="inherit"
        size="small"
        endIcon={<ExpandMoreIcon />}
        aria-label={`Other steps for ${name}`}
        aria-haspopup="menu"
        aria-expanded={menuAnchor ? true : undefined}
        aria-controls={menuAnchor ? menuId : undefined}
        onClick={(e) => setMenuAnchor(e.currentTarget)}
      >
        Steps
      </Button>
      {/* In place rather than in a portal: the menu then lies inside the page's landmarks. */}
      <Menu id={menuId} anchorEl={menuAnchor} open={menuAnchor != null} onClose={() => setMenuAnchor(null)} disablePortal>
        {ahead.map((step) => (
          <MenuItem key={step} onClick={() => choose(step)}>{stepActionText(step)}</MenuItem>
        ))}
      </Menu>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby={`${menuId}-clear`}>
        <DialogTitle id={`${menuId}-clear`}>Clear {name}?</DialogTitle>
        <DialogContent>
          <DialogContentText>The crew is back in service: the ambulance becomes available and the call is resolved.</DialogContentText>
        </DialogContent>
        <DialogActions>
          {/* Focus on the safe choice: Enter on "Clear" and Enter again must not clear the unit. */}
          <Button onClick={() => setConfirming(false)} color="inherit" variant="outlined" autoFocus>Cancel</Button>
          <Button onClick={clear} variant="contained" color="warning">Clear</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
