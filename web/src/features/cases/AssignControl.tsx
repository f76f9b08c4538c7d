import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { CaseDto, DivertibleUnit } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { queries } from '../../api/queries';
import { useApiMutation } from '../../api/useApiMutation';
import { patientNameOf } from '../../domain/caseRules';
import { AmbulanceIcon } from '../../layout/icons';
import { useToast } from '../../layout/toast';
import { capabilityWords } from '../shared/capabilityWords';
import { dispatchedText, divertDetail, freeUnitDetail, takeQuestion } from './assignText';

const FAIL_TEXT = 'Could not dispatch the ambulance';

/**
 * A waiting call's Assign: a compact menu of the server's free units for that call, quickest
 * first (the first is focused: Enter, or one click, dispatches it), and under "Take from a
 * lower-priority call" the busy units that could be diverted to it, each with its call's
 * priority. Taking one asks first, the focus on Cancel. The answer goes on the board through its
 * one writer (both calls, when one went back to the queue); the server's refusal (409: the unit
 * was taken meanwhile) is shown in its words. `onDispatched` lets the card keep the focus.
 */
export function AssignControl({ item, onDispatched }: { item: CaseDto; onDispatched?: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The unit asked about stays while the question fades out; `asking` opens and closes it.
  const [taking, setTaking] = useState<DivertibleUnit | null>(null);
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const name = patientNameOf(item);
  const open = anchor != null;
  const suggestions = useQuery({ ...queries.caseSuggestions(item.id), enabled: open });
  const dispatch = useApiMutation(mutations.dispatchWaiting, {
    onSuccess: (r) => {
      const plate = r.case.license_plate ?? r.case.assignment?.license_plate ?? 'The ambulance';
      const requeued = r.requeued ? { priority: r.requeued.priority, name: patientNameOf(r.requeued) } : null;
      toast(dispatchedText(plate, { priority: r.case.priority, name: patientNameOf(r.case) }, requeued), 'success');
      onDispatched?.();
    },
    onError: (error) => toast(error instanceof ApiError && error.serverError ? error.serverError : FAIL_TEXT, 'error'),
  });

  const send = (ambulanceId: number, takeFrom?: string) => {
    setAnchor(null);
    setAsking(false);
    if (dispatch.isPending) return;
    dispatch.mutate({ caseId: item.id, body: { ambulance_id: ambulanceId, ...(takeFrom ? { take_from_case_id: takeFrom } : {}) } });
  };
  const cancelTake = () => setAsking(false);
  const prefetch = () => void qc.prefetchQuery(queries.caseSuggestions(item.id));

  const data = suggestions.data;
  const located = data?.located ?? true;
  const board = qc.getQueryData<CaseDto[]>(queries.cases().queryKey);
  const nameOf = (caseId: string) => {
    const c = board?.find((x) => x.id === caseId);
    return c ? patientNameOf(c) : null;
  };
  const question = taking ? takeQuestion(taking, nameOf(taking.case_id), { priority: item.priority, name }) : null;

  return (
    <>
      <Button
        ref={button}
        variant="contained"
        color="secondary"
        size="small"
        startIcon={<AmbulanceIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        onFocus={prefetch}
        onMouseEnter={prefetch}
        aria-label={`Assign an ambulance to the call of ${name}`}
        aria-haspopup="menu"
        aria-expanded={open ? true : undefined}
        aria-controls={open ? menuId : undefined}
        aria-busy={dispatch.isPending}
        data-board-action="assign"
      >
        Assign
      </Button>
      {/* In place rather than in a portal: the menu then lies inside the page's landmarks. */}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        disablePortal
        // Below the button, never over the card's own lines.
        variant="menu"
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-label': `Ambulances for the call of ${name}`, dense: true, sx: { maxWidth: 380, py: 0.5 } } }}
        data-testid="assign-menu"
      >
        {/* The headings are drawn for the eye; in the menu's tree they are plain text (a menu holds only items and separators). */}
        <ListSubheader role="presentation" sx={{ lineHeight: '32px' }}>Free units, quickest first</ListSubheader>
        {!data ? (
          suggestions.isError ? (
            <MenuItem onClick={() => void suggestions.refetch()} autoFocus>Could not load the units. Retry</MenuItem>
          ) : (
            <MenuItem disabled>Finding the quickest units…</MenuItem>
          )
        ) : data.suggestions.length === 0 ? (
          <MenuItem disabled data-testid="assign-none">No ambulance is free</MenuItem>
        ) : (
          data.suggestions.map((s, i) => (
            // The first (quickest) takes the focus as it appears: Enter dispatches it.
            <MenuItem key={s.ambulance_id} autoFocus={i === 0} onClick={() => send(s.ambulance_id)} data-testid="assign-free">
              <ListItemText primary={s.license_plate} secondary={`${capabilityWords(s.capability)} · ${freeUnitDetail(s, located)}`} slotProps={{ primary: { sx: { fontWeight: 700 } } }} />
            </MenuItem>
          ))
        )}
        {data && data.divertible.length > 0 && [
          <Divider key="divider" component="li" />,
          <ListSubheader key="take" role="presentation" sx={{ lineHeight: '32px' }}>Take from a lower-priority call</ListSubheader>,
          ...data.divertible.map((d, i) => (
            <MenuItem
              key={`take-${d.ambulance_id}`}
              autoFocus={data.suggestions.length === 0 && i === 0}
              onClick={() => {
                setAnchor(null);
                setTaking(d);
                setAsking(true);
              }}
              data-testid="assign-divert"
            >
              <ListItemText primary={d.license_plate} secondary={`${capabilityWords(d.capability)} · ${divertDetail(d, located)}`} slotProps={{ primary: { sx: { fontWeight: 700 } } }} />
            </MenuItem>
          )),
        ]}
      </Menu>
      {/* Its opener (a menu item) is gone when it closes: the focus goes back to Assign itself. */}
      <Dialog
        open={asking}
        onClose={cancelTake}
        disableRestoreFocus
        // Once it has gone (its focus trap with it); after a dispatch the button is gone too, and the card keeps the focus.
        slotProps={{ transition: { onExited: () => button.current?.focus() } }}
        aria-labelledby={`${menuId}-take`}
        aria-describedby={`${menuId}-take-text`}
      >
        {question && (
          <>
            <DialogTitle id={`${menuId}-take`}>{question.title}</DialogTitle>
            <DialogContent>
              <DialogContentText id={`${menuId}-take-text`}>{question.text}</DialogContentText>
            </DialogContent>
            <DialogActions>
              {/* Focus on the safe choice: taking a unit sends another call back to the queue. */}
              <Button onClick={cancelTake} color="inherit" variant="outlined" autoFocus>Cancel</Button>
              <Button onClick={() => send(taking!.ambulance_id, taking!.case_id)} variant="contained" color="warning">{question.confirm}</Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </>
  );
}
