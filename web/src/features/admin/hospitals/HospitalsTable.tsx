import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { HospitalDto } from '../../../api/contract';
import { LinkIcon } from '../../../layout/icons';
import { RowActions } from '../shared/RowActions';
import { ScrollTable } from '../shared/ScrollTable';
import { StateRow } from '../shared/StateRow';
import { HOSPITAL_STATUS_WORDS, capabilitiesText, statusSetText } from './hospitalForm';

export function HospitalStatusChip({ hospital }: { hospital: Pick<HospitalDto, 'status'> }) {
  const diversion = hospital.status === 'diversion';
  return (
    <Chip
      size="small"
      label={HOSPITAL_STATUS_WORDS[hospital.status] ?? hospital.status}
      color={diversion ? 'warning' : 'success'}
      variant={diversion ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600 }}
    />
  );
}

export function HospitalsTable({ hospitals, loading, deletingId, onEdit, onDelete, onLink }: {
  hospitals: HospitalDto[];
  loading: boolean;
  deletingId: number | null;
  onEdit: (h: HospitalDto) => void;
  onDelete: (h: HospitalDto) => void;
  onLink: (h: HospitalDto) => void;
}) {
  return (
    <ScrollTable label="Hospitals" minWidth={900}>
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          <TableCell>Position</TableCell>
          <TableCell>Capabilities</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Page link</TableCell>
          <TableCell>Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {loading && <StateRow colSpan={6} text="Loading..." loading />}
        {!loading && hospitals.length === 0 && <StateRow colSpan={6} text="No hospitals yet: add the ones your crews convey to" />}
        {hospitals.map((h) => (
          <TableRow key={h.id} hover data-hospital-id={h.id}>
            <TableCell sx={{ minWidth: 180 }}>
              <Box sx={{ fontWeight: 600 }}>{h.name}</Box>
              {h.address && <Typography variant="body2" color="text.secondary">{h.address}</Typography>}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{h.latitude.toFixed(5)}, {h.longitude.toFixed(5)}</TableCell>
            <TableCell sx={{ minWidth: 160 }}>{capabilitiesText(h.capabilities)}</TableCell>
            <TableCell sx={{ minWidth: 200 }}>
              <HospitalStatusChip hospital={h} />
              {h.status === 'diversion' && h.status_reason && <Typography variant="body2" sx={{ mt: 0.5 }}>{h.status_reason}</Typography>}
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>{statusSetText(h)}</Typography>
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{h.has_link ? 'Made' : 'None yet'}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <RowActions what={`hospital ${h.name}`} onEdit={() => onEdit(h)} onDelete={() => onDelete(h)} deleting={deletingId === h.id} />
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<LinkIcon />}
                  onClick={() => onLink(h)}
                  aria-label={`Make page link for hospital ${h.name}`}
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  Make link
                </Button>
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}
