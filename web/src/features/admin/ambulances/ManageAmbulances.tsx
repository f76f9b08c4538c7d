import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useSession } from '../../../auth/useSession';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { AddIcon } from '../../../layout/icons';
import { useManagedList } from '../shared/useManagedList';
import { AmbulanceDialog } from './AmbulanceDialog';
import { AmbulancesTable } from './AmbulancesTable';
import { ambulanceBody, emptyAmbulanceForm, formFromAmbulance } from './ambulanceForm';

/**
 * Manage Ambulances, in the admin portal and at /manage-ambulances. Admins add, edit and
 * delete; other staff may only change an ambulance's status (the server refuses the rest).
 */
export function ManageAmbulances() {
  const isAdmin = useSession()?.role === 'admin';
  const { list: ambulances, load, dialog, open, close, save, remove, confirmDelete } = useManagedList({
    query: queries.ambulances(), noun: { one: 'Ambulance', many: 'ambulances' }, save: mutations.saveAmbulance, remove: mutations.deleteAmbulance,
  });
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
        mode={dialog.row ? 'edit' : 'add'}
        initial={dialog.row ? formFromAmbulance(dialog.row) : emptyAmbulanceForm}
        saving={save.isPending}
        statusOnly={!isAdmin}
        onCancel={close}
        onSave={(form) => save.mutate({ id: dialog.row?.id ?? null, body: ambulanceBody(form, !isAdmin) })}
      />
    </>
  );
}
