import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import type { UserDto } from '../../../api/contract';
import { LogoutIcon } from '../../../layout/icons';
import { RowActions } from '../shared/RowActions';
import { ScrollTable } from '../shared/ScrollTable';
import { EmailText } from '../shared/EmailText';
import { StateRow } from '../shared/StateRow';
import { genderListText, shiftText } from './operatorForm';

export function OperatorsTable({ operators, deletingId, signingOutId, onEdit, onDelete, onSignOut }: {
  operators: UserDto[];
  deletingId: number | null;
  /** The operator whose sessions are being ended, if any. */
  signingOutId: number | null;
  onEdit: (u: UserDto) => void;
  onDelete: (u: UserDto) => void;
  /** Ends every session of the operator (asks first). */
  onSignOut: (u: UserDto) => void;
}) {
  return (
    <ScrollTable label="Operators" minWidth={680}>
      <TableHead>
        <TableRow>
          <TableCell>ID</TableCell>
          <TableCell>Name</TableCell>
          <TableCell>Email</TableCell>
          <TableCell>Shift</TableCell>
          <TableCell>Gender</TableCell>
          <TableCell>Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {operators.length === 0 && <StateRow colSpan={6} text="No operators found" />}
        {operators.map((u) => (
          <TableRow key={u.id} hover>
            <TableCell>{u.id}</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>{u.name}</TableCell>
            <TableCell><EmailText email={u.email} /></TableCell>
            <TableCell>{shiftText(u.shift)}</TableCell>
            <TableCell>{genderListText(u.gender)}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <RowActions what={`operator ${u.name}`} onEdit={() => onEdit(u)} onDelete={() => onDelete(u)} deleting={deletingId === u.id} />
                <Tooltip title="Sign out everywhere">
                  <span>
                    <IconButton size="small" aria-label={`Sign out ${u.name} everywhere`} onClick={() => onSignOut(u)} disabled={signingOutId === u.id}>
                      <LogoutIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}
