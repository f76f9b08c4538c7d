import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import type { AmbulanceDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useSession } from '../../../auth/useSession';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { AddIcon } from '../../../layout/icons';
import { useManagedList } from '../shared/useManagedList';
import { AmbulanceDialog } from './AmbulanceDialog';
import { DeviceIdentityDialog } from './DeviceIdentityDialog';
import { AmbulancesTable } from './AmbulancesTable';
import { ambulanceBody, emptyAmbulanceForm, formFromAmbulance } from './ambulanceForm';

/**
 * Manage Ambulances, in the admin portal and at /manage-ambulances. Admins add, edit,
 * delete and issue device identities; other staff may only change an ambulance's status (the server refuses the rest).
 */
export function ManageAmbulances() {
  const isAdmin = useSession()?.role === 'admin';
  const { list: ambulances, load, dialog, open, close, save, remove, confirmDelete } = useManagedList({
    query: queries.ambulances(), noun: { one: 'Ambulance', many: 'ambulances' }, save: mutations.saveAmbulance, remove: mutations.deleteAmbulance,
  });
  // A new key per opening: the dialog starts at its confirmation, with no earlier secret in it.
  const [device, setDevice] = useState<{ key: number; open: boolean; ambulance: AmbulanceDto | null }>({ key: 0, open: false, ambulance: null });
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
        onDevice={isAdmin ? (a) => setDevice((d) => ({ key: d.key + 1, open: true, ambulance: a })) : undefined}
      />}
      {device.ambulance && (
        <DeviceIdentityDialog key={device.key} open={device.open} ambulance={device.ambulance} onClose={() => setDevice((d) => ({ ...d, open: false }))} />
      )}
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
