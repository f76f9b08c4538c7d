import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { AmbulanceDto } from '../../../api/contract';
import { CapabilityChip } from '../../shared/CapabilityChip';
import { AmbulanceStatusBadge } from '../../shared/StatusBadges';
import { UnitStatusLive } from '../../fleet/UnitStatusChip';
import { RowActions } from '../shared/RowActions';
import { ScrollTable } from '../shared/ScrollTable';
import { StateRow } from '../shared/StateRow';
import { AmbulanceLocation } from './AmbulanceLocation';
import { GpsIcon } from '../../../layout/icons';

export function AmbulancesTable({ ambulances, loading, canDelete, deletingId, onEdit, onDelete, onDevice }: {
  ambulances: AmbulanceDto[];
  loading: boolean;
  canDelete: boolean;
  deletingId: number | null;
  onEdit: (a: AmbulanceDto) => void;
  onDelete: (a: AmbulanceDto) => void;
  /** Admins only: issue the ambulance a device identity. */
  onDevice?: (a: AmbulanceDto) => void;
}) {
  return (
    <ScrollTable label="Ambulances" minWidth={1000}>
      <TableHead>
        <TableRow>
          <TableCell>ID</TableCell>
          <TableCell>License Plate</TableCell>
          <TableCell>Capability</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Unit Status</TableCell>
          <TableCell>Location</TableCell>
          <TableCell>Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {loading && <StateRow colSpan={7} text="Loading..." loading />}
        {!loading && ambulances.length === 0 && <StateRow colSpan={7} text="No ambulances found" />}
        {ambulances.map((a) => (
          <TableRow key={a.id} hover>
            <TableCell>{a.id}</TableCell>
            <TableCell sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>{a.license_plate}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}><CapabilityChip capability={a.capability} /></TableCell>
            <TableCell><AmbulanceStatusBadge status={a.status} /></TableCell>
            <TableCell sx={{ minWidth: 150 }}><UnitStatusLive ambulance={a} /></TableCell>
            <TableCell sx={{ minWidth: 200 }}><AmbulanceLocation location={a.location} /></TableCell>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <RowActions
                  what={`ambulance ${a.license_plate}`}
                  onEdit={() => onEdit(a)}
                  onDelete={canDelete ? () => onDelete(a) : undefined}
                  deleting={deletingId === a.id}
                />
                {onDevice && (
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<GpsIcon />}
                    onClick={() => onDevice(a)}
                    aria-label={`Device identity for ambulance ${a.license_plate}`}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    Device
                  </Button>
                )}
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}
