import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError } from '../../api/client';
import type { CaseDto } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { queries } from '../../api/queries';
import { useApiMutation } from '../../api/useApiMutation';
import { patientNameOf } from '../../domain/caseRules';
import { priorityTag } from '../../domain/callLife';
import { useToast } from '../../layout/toast';
import { CapabilityChip } from '../shared/CapabilityChip';
import { addButtonText, addedText, needText, planReasonText, planSelection, unitChoiceDetail, unitErrorText } from './callUnits';

/**
 * Add unit: the free units ranked for the call (the server's suggestions for it, those meeting its
 * priority's need first), each with its capability, whether it meets the need and its estimated
 * arrival, the server's plan on top and its units ticked. Several may be ticked; each is one POST,
 * in the order listed, so one refused (409: taken meanwhile) does not stop the others: the units
 * added are said in a toast, the refused ones stay listed here in the server's words.
 */
export function AddUnitDialog({ item, open, onClose, onExited }: {
  item: CaseDto;
  open: boolean;
  onClose: () => void;
  /** Runs once the dialog has gone (its opener may be gone too: the caller places the focus). */
  onExited?: () => void;
}) {
  const toast = useToast();
  const titleId = useId();
  const listId = useId();
  const name = patientNameOf(item);
  const suggestions = useQuery({ ...queries.caseSuggestions(item.id), enabled: open });
  // The plan's units stand ticked until the dispatcher ticks by hand.
  const [picked, setPicked] = useState<number[] | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const add = useApiMutation(mutations.addUnit);

  const data = suggestions.data;
  const offered = data?.suggestions ?? [];
  const free = new Set(offered.map((s) => s.ambulance_id));
  // A ticked unit taken meanwhile drops out: only what is still offered is sent.
  const selected = (picked ?? planSelection(data?.plan, offered)).filter((id) => free.has(id));
  const toggle = (id: number, on: boolean) => setPicked(on ? [...selected, id] : selected.filter((x) => x !== id));

  const close = () => {
    if (busy) return;
    onClose();
  };
  const reset = () => {
    setPicked(null);
    setErrors([]);
    onExited?.();
  };

  const submit = async () => {
    if (busy || selected.length === 0) return;
    setBusy(true);
    setErrors([]);
    const added: string[] = [];
    const refused: string[] = [];
    let to = { priority: item.priority, name };
    // In the list's order (quickest first): on a waiting call the first one sent becomes its primary unit.
    for (const id of offered.map((s) => s.ambulance_id).filter((x) => selected.includes(x))) {
      const plate = offered.find((s) => s.ambulance_id === id)?.license_plate ?? `Ambulance #${id}`;
      try {
        const r = await add.mutateAsync({ caseId: item.id, ambulanceId: id });
        added.push(r.assignment.license_plate ?? plate);
        to = { priority: r.case.priority, name: patientNameOf(r.case) };
      } catch (error) {
        refused.push(unitErrorText(plate, error instanceof ApiError ? error.serverError : undefined));
      }
    }
    setBusy(false);
    if (added.length) toast(addedText(added, to), 'success');
    setPicked([]);
    if (refused.length) setErrors(refused);
    else onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onExited: reset } }}
      data-testid="add-unit-dialog"
    >
      <DialogTitle id={titleId}>Add units to the {priorityTag(item.priority)} call of {name}</DialogTitle>
      <DialogContent>
        {!data ? (
          suggestions.isError ? (
            <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => void suggestions.refetch()}>Retry</Button>}>
              Could not load the free units.
            </Alert>
          ) : (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <CircularProgress size={18} />
              <Typography variant="body2">Finding the quickest units…</Typography>
            </Box>
          )
        ) : (
          <>
            {data.plan.send.length > 0 && (
              <Alert severity="info" sx={{ mb: 2 }} data-testid="add-unit-plan">{planReasonText(data.plan)}</Alert>
            )}
            <Typography id={listId} variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {needText(data.plan.priority, data.plan.need)}. Free units, quickest first:
            </Typography>
            {offered.length === 0 ? (
              <Typography variant="body2" data-testid="add-unit-none">No unit is free.</Typography>
            ) : (
              <FormGroup aria-labelledby={listId} sx={{ gap: 0.5 }}>
                {offered.map((s) => (
                  <FormControlLabel
                    key={s.ambulance_id}
                    data-testid="add-unit-choice"
                    data-ambulance-id={s.ambulance_id}
                    control={(
                      <Checkbox
                        checked={selected.includes(s.ambulance_id)}
                        onChange={(e) => toggle(s.ambulance_id, e.target.checked)}
                        disabled={busy}
                      />
                    )}
                    label={(
                      <Box sx={{ py: 0.5 }}>
                        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                          <Typography component="span" sx={{ fontWeight: 700 }}>{s.license_plate}</Typography>
                          <CapabilityChip capability={s.capability} />
                        </Box>
                        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                          {unitChoiceDetail(s, data.located)}
                        </Typography>
                      </Box>
                    )}
                    sx={{ alignItems: 'flex-start', mr: 0, '& .MuiCheckbox-root': { pt: 1 } }}
                  />
                ))}
              </FormGroup>
            )}
          </>
        )}
        {errors.length > 0 && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }} data-testid="add-unit-errors">
            {errors.length === 1 ? errors[0] : (
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {errors.map((e) => <li key={e}>{e}</li>)}
              </Box>
            )}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit" disabled={busy}>{errors.length ? 'Close' : 'Cancel'}</Button>
        <Button
          onClick={() => void submit()}
          variant="contained"
          disabled={busy || selected.length === 0}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {busy ? 'Adding…' : addButtonText(selected.length)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
