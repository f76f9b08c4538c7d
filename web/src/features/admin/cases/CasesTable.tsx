import Chip from '@mui/material/Chip';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { CaseDto } from '../../../api/contract';
import { formatDateTime, patientNameOf } from '../../../domain/caseRules';
import { isOpenCall } from '../../../domain/callLife';
import { CallClock } from '../../shared/CallClock';
import { PriorityChip } from '../../shared/PriorityChip';
import { CaseStatusBadge } from '../../shared/StatusBadges';
import { UnitStatusChip } from '../../shared/UnitStatusChip';
import { RowActions } from '../shared/RowActions';
import { ScrollTable } from '../shared/ScrollTable';
import { EmailText } from '../shared/EmailText';
import { StateRow } from '../shared/StateRow';
import { CaseLocationNotes } from '../../cases/CaseLocationNotes';

const COLUMNS = ['ID', 'Priority', 'Description', 'Patient Name', 'Email', 'Status', 'Call', 'Created At', 'Updated At', 'Actions'];

export function CasesTable({ cases, loading, deletingId, onEdit, onDelete }: {
  cases: CaseDto[];
  loading: boolean;
  deletingId: string | null;
  onEdit: (c: CaseDto) => void;
  onDelete: (c: CaseDto) => void;
}) {
  return (
    <ScrollTable label="All cases" minWidth={1180}>
      <TableHead>
        <TableRow>{COLUMNS.map((c) => <TableCell key={c}>{c}</TableCell>)}</TableRow>
      </TableHead>
      <TableBody>
        {loading && <StateRow colSpan={COLUMNS.length} text="Loading..." loading />}
        {!loading && cases.length === 0 && <StateRow colSpan={COLUMNS.length} text="No cases found" />}
        {cases.map((c) => {
          const patient = patientNameOf(c);
          return (
            <TableRow key={c.id} hover data-case-id={c.id} data-testid="admin-case-row">
              <TableCell>
                <Tooltip title={c.id}>
                  <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>{c.id.slice(0, 8)}</Typography>
                </Tooltip>
                {c.demo && (
                  // Generated past calls (SEED=demo) sit beside real ones in this table: each says so.
                  <Tooltip title="Demo history: a generated past call, not a real one" describeChild>
                    <Chip label="Demo" size="small" variant="outlined" data-testid="demo-chip" sx={{ mt: 0.5, height: 20, fontSize: '0.7rem' }} />
                  </Tooltip>
                )}
              </TableCell>
              <TableCell><PriorityChip priority={c.priority} short /></TableCell>
              <TableCell sx={{ minWidth: 130, maxWidth: 220 }}>
                <Typography variant="body2" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                  {c.description || '—'}
                </Typography>
              </TableCell>
              <TableCell sx={{ fontWeight: 600, minWidth: 140 }}>
                {patient}
                <CaseLocationNotes item={c} dense />
              </TableCell>
              <TableCell sx={{ minWidth: 120 }}><EmailText email={c.email || c.patient_email} /></TableCell>
              <TableCell><CaseStatusBadge status={c.status} /></TableCell>
              <TableCell sx={{ minWidth: 200 }}>
                {isOpenCall(c) && <CallClock item={c} />}
                {c.assignment && (
                  <Typography variant="body2" component="div" sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 0.5 }}>
                    {c.assignment.license_plate}<UnitStatusChip status={c.assignment.status} />
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ minWidth: 120, maxWidth: 140 }}>{formatDateTime(c.created_at)}</TableCell>
              <TableCell sx={{ minWidth: 120, maxWidth: 140 }}>{formatDateTime(c.updated_at)}</TableCell>
              <TableCell>
                <RowActions what={`case of ${patient}`} onEdit={() => onEdit(c)} onDelete={() => onDelete(c)} deleting={deletingId === c.id} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </ScrollTable>
  );
}
