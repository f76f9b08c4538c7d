import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { CaseDto, IntakeLocationDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useApiMutation } from '../../../api/useApiMutation';
import { serverErrorOr } from '../shared/errors';
import { CloseIcon } from '../../../layout/icons';
import { CallTimes } from '../../shared/CallTimes';
import { CaseTimeline } from './CaseTimeline';
import { EditCaseFields } from './EditCaseFields';
import { UpdateCasePanel } from './UpdateCasePanel';
import { editCaseBody, formFromCase, formLocation, type EditCaseForm } from './editCaseForm';

/**
 * Edit Case Information (SPEC §2). A refused save (e.g. 409: the chosen ambulance is taken)
 * shows the server's text here and keeps the dialog open.
 */
export function EditCaseDialog({ open, caseRow, onClose, onSaved }: {
  open: boolean;
  caseRow: CaseDto;
  onClose: () => void;
  onSaved: (updated: CaseDto) => void;
}) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const [form, setForm] = useState<EditCaseForm>(() => formFromCase(caseRow));
  const ambulances = useQuery(queries.ambulances());
  // The case's location as it is now (the patient may share or move while the dialog is open):
  // its board row, or for a call no longer on the board (history) its detail, which the live
  // cache keeps as current (and CallTimes below reads anyway).
  const onBoard = useQuery({ ...queries.cases(), select: (list) => list.find((c) => c.id === caseRow.id) });
  const detail = useQuery({ ...queries.caseDetail(caseRow.id), enabled: open });
  const near = formLocation(form, onBoard.data ?? detail.data?.case ?? caseRow);
  const suggestions = useQuery({ ...queries.dispatchSuggestions(near?.latitude ?? 0, near?.longitude ?? 0), enabled: open && near != null });
  const setIntake = useCallback((intake: IntakeLocationDto | null) => setForm((f) => ({ ...f, intake, intakeChanged: true })), []);
  const save = useApiMutation(mutations.updateCase, {
    onSuccess: (r) => onSaved(r.case),
  });

  // A refusal can appear below the fold on a phone: bring it into view.
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (save.isError) errorRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [save.isError, save.failureCount, save.submittedAt]);

  const assignedId = caseRow.ambulance_id;
  const assignedPlate = ambulances.data?.find((a) => a.id === assignedId)?.license_plate ?? caseRow.license_plate;
  const saving = save.isPending;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id: caseRow.id, body: editCaseBody(form) });
  };

  return (
    // The paper does not scroll itself: the title row and the buttons stay put and only the
    // fields and timeline between them scroll, so close (X) and Update Case are always in reach.
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      aria-labelledby="edit-case-title"
      slotProps={{ paper: { sx: { overflow: 'hidden' } } }}
    >
      <Box sx={{
        display: 'grid', flex: '1 1 auto', minHeight: 0,
        gridTemplateColumns: { xs: '1fr', md: '260px minmax(0, 1fr)' },
        gridTemplateRows: { xs: 'auto minmax(0, 1fr)', md: 'minmax(0, 1fr)' },
      }}>
        <UpdateCasePanel />
        <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0, minHeight: 0 }}>
          <Stack direction="row" sx={{ alignItems: 'center', pr: 1.5, flex: 'none', borderBottom: 1, borderColor: 'divider' }}>
            <DialogTitle id="edit-case-title" sx={{ flex: 1 }}>Edit Case Information</DialogTitle>
            <IconButton aria-label="Close" onClick={onClose} disabled={saving}><CloseIcon /></IconButton>
          </Stack>
          <DialogContent data-testid="edit-case-body" sx={{ px: 3, py: 2 }}>
            <Stack spacing={2.5}>
              <Typography variant="body2" color="text.secondary">
                Case <Box component="span" sx={{ fontFamily: 'monospace' }}>{caseRow.id.slice(0, 8)}</Box>
              </Typography>
              <EditCaseFields
                form={form}
                onChange={(key, value) => setForm((f) => ({ ...f, [key]: value }))}
                onIntake={setIntake}
                ambulances={ambulances.data ?? []}
                currentAmbulanceId={assignedId}
                currentPlate={caseRow.license_plate}
                near={near}
                suggestions={suggestions.data?.suggestions ?? null}
                disabled={saving}
              />
              {assignedId != null && (
                <Alert severity="info" variant="outlined" icon={false} role="note" data-testid="current-ambulance">
                  Currently assigned ambulance:{' '}
                  <strong>{ambulances.isPending ? 'Loading...' : assignedPlate ?? `#${assignedId}`}</strong>
                </Alert>
              )}
              {save.isError && <Alert ref={errorRef} severity="error" role="alert">{serverErrorOr(save.error, 'Failed to update case')}</Alert>}
              <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }}>
                <CallTimes caseId={caseRow.id} />
              </Box>
              <CaseTimeline caseId={caseRow.id} />
            </Stack>
          </DialogContent>
          <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', px: 3, py: 2, borderTop: 1, borderColor: 'divider', flex: 'none', bgcolor: 'background.paper' }}>
            <Button onClick={onClose} disabled={saving} color="inherit">Cancel</Button>
            <Button type="submit" variant="contained" disabled={saving}>{saving ? 'Processing...' : 'Update Case'}</Button>
          </Stack>
        </Box>
      </Box>
    </Dialog>
  );
}
