import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AmbulanceDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useApiMutation } from '../../../api/useApiMutation';
import { useSession } from '../../../auth/useSession';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { useToast } from '../../../layout/toast';
import { serverErrorOr, withServerReason } from '../shared/errors';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { useErrorToast } from '../../shared/useErrorToast';
import { useLoadState } from '../../shared/useLoadState';
import { AddIcon } from '../../../layout/icons';
import { AmbulanceDialog } from './AmbulanceDialog';
import { AmbulancesTable } from './AmbulancesTable';
import { ambulanceBody, emptyAmbulanceForm, formFromAmbulance } from './ambulanceForm';

interface DialogState { key: number; open: boolean; ambulance: AmbulanceDto | null }

/**
 * Manage Ambulances, in the admin portal and at /manage-ambulances. Admins add, edit and
 * delete; other staff may only change an ambulance's status (the server refuses the rest).
 */
export function ManageAmbulances() {
  const toast = useToast();
  const isAdmin = useSession()?.role === 'admin';
  const ambulances = useQuery(queries.ambulances());
  const [dialog, setDialog] = useState<DialogState>({ key: 0, open: false, ambulance: null });
  const close = () => setDialog((d) => ({ ...d, open: false }));

  useErrorToast(ambulances.error, ambulances.errorUpdatedAt, () => 'Failed to fetch ambulances');
  const load = useLoadState([{ query: ambulances, failText: () => 'Failed to fetch ambulances' }]);

  const save = useApiMutation(mutations.saveAmbulance, {
    onSuccess: (_r, { id }) => {
      toast(id == null ? 'Ambulance added successfully' : 'Ambulance updated successfully', 'success');
      close();
    },
    onError: (error) => toast(serverErrorOr(error, 'Failed to save ambulance'), 'error'),
  });

  const remove = useApiMutation(mutations.deleteAmbulance, {
    onSuccess: () => toast('Ambulance deleted successfully', 'success'),
    onError: (error) => toast(withServerReason(error, 'Failed to delete ambulance'), 'error'),
  });

  const open = (ambulance: AmbulanceDto | null) => setDialog((d) => ({ key: d.key + 1, open: true, ambulance }));
  const confirmDelete = (a: AmbulanceDto) => {
    if (window.confirm('Are you sure you want to delete this ambulance?')) remove.mutate(a.id);
  };
  const total = load.phase === 'loaded' ? ambulances.data?.length ?? 0 : '–';

  return (
    <>
      <ScreenTitle
        title="Manage Ambulances"
        subtitle={isAdmin ? 'Your fleet: plates, status and driver contacts' : 'Keep each ambulance\'s status up to date'}
        actions={(
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Chip label={`Total: ${total}`} color="secondary" variant="outlined" sx={{ fontWeight: 700 }} data-testid="ambulance-total" />
            {isAdmin && <Button variant="contained" startIcon={<AddIcon />} onClick={() => open(null)}>Add New Ambulance</Button>}
          </Box>
        )}
      />
      <LoadStateBanner state={load} />
      {load.phase !== 'failed' && <AmbulancesTable
        ambulances={ambulances.data ?? []}
        loading={load.phase === 'loading'}
        canDelete={isAdmin}
        deletingId={remove.isPending ? (remove.variables ?? null) : null}
        onEdit={(a) => open(a)}
        onDelete={confirmDelete}
      />}
      <AmbulanceDialog
        key={dialog.key}
        open={dialog.open}
        mode={dialog.ambulance ? 'edit' : 'add'}
        initial={dialog.ambulance ? formFromAmbulance(dialog.ambulance) : emptyAmbulanceForm}
        saving={save.isPending}
        statusOnly={!isAdmin}
        onCancel={close}
        onSave={(form) => save.mutate({ id: dialog.ambulance?.id ?? null, body: ambulanceBody(form, !isAdmin) })}
      />
    </>
  );
}
