import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { UserDto } from '../../../api/contract';
import { RowActions } from '../shared/RowActions';
import { ScrollTable } from '../shared/ScrollTable';
import { EmailText } from '../shared/EmailText';
import { StateRow } from '../shared/StateRow';
import { genderListText, shiftText } from './operatorForm';

export function OperatorsTable({ operators, deletingId, onEdit, onDelete }: {
  operators: UserDto[];
  deletingId: number | null;
  onEdit: (u: UserDto) => void;
  onDelete: (u: UserDto) => void;
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
              <RowActions what={`operator ${u.name}`} onEdit={() => onEdit(u)} onDelete={() => onDelete(u)} deleting={deletingId === u.id} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}
