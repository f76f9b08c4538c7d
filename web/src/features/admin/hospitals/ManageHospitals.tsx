import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import type { HospitalDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { AddIcon } from '../../../layout/icons';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { useManagedList } from '../shared/useManagedList';
import { HospitalDialog } from './HospitalDialog';
import { HospitalLinkDialog } from './HospitalLinkDialog';
import { HospitalsTable } from './HospitalsTable';
import { emptyHospitalForm, formFromHospital, hospitalBody, statusSetText } from './hospitalForm';

/**
 * Manage Hospitals (admins, issue 30): the hospitals crews convey to, what each can take and
 * whether it is on diversion (and who said so, when), and each one's page link, made here and
 * shown once. Live: a hospital setting its own diversion from its page shows at once.
 */
export function ManageHospitals() {
  const { list: hospitals, load, dialog, open, close, save, remove, confirmDelete } = useManagedList({
    query: queries.hospitals(), noun: { one: 'Hospital', many: 'hospitals' }, save: mutations.saveHospital, remove: mutations.deleteHospital,
  });
  // A new key per opening: the dialog starts at its confirmation, with no earlier link in it.
  const [link, setLink] = useState<{ key: number; open: boolean; hospital: HospitalDto | null }>({ key: 0, open: false, hospital: null });
  const list = hospitals.data ?? [];
  const total = load.phase === 'loaded' ? list.length : '–';
  const diverting = list.filter((h) => h.status === 'diversion').length;
  const before = dialog.row ? formFromHospital(dialog.row) : null;

  return (
    <>
      <ScreenTitle
        title="Manage Hospitals"
        subtitle="Where crews convey patients: what each hospital can take, its diversion status and its page link"
        actions={(
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Chip label={`Total: ${total}`} color="secondary" variant="outlined" sx={{ fontWeight: 700 }} data-testid="hospital-total" />
            {diverting > 0 && <Chip label={`On diversion: ${diverting}`} color="warning" sx={{ fontWeight: 700 }} data-testid="hospital-diverting" />}
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => open(null)}>Add New Hospital</Button>
          </Box>
        )}
      />
      <LoadStateBanner state={load} />
      {load.phase !== 'failed' && (
        <HospitalsTable
          hospitals={list}
          loading={load.phase === 'loading'}
          deletingId={remove.isPending ? (remove.variables ?? null) : null}
          onEdit={(h) => open(h)}
          onDelete={confirmDelete}
          onLink={(h) => setLink((l) => ({ key: l.key + 1, open: true, hospital: h }))}
        />
      )}
      {link.hospital && (
        <HospitalLinkDialog key={link.key} open={link.open} hospital={link.hospital} onClose={() => setLink((l) => ({ ...l, open: false }))} />
      )}
      <HospitalDialog
        key={dialog.key}
        open={dialog.open}
        mode={dialog.row ? 'edit' : 'add'}
        initial={before ?? emptyHospitalForm}
        statusLine={dialog.row ? statusSetText(dialog.row) : undefined}
        saving={save.isPending}
        onCancel={close}
        onSave={(form) => save.mutate({ id: dialog.row?.id ?? null, body: hospitalBody(form, before) })}
      />
    </>
  );
}
