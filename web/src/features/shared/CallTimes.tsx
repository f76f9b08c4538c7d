import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { AssignmentDto, TimedStep } from '../../api/contract';
import { queries } from '../../api/queries';
import { EditIcon } from '../../layout/icons';
import { CorrectTimeDialog } from './CorrectTimeDialog';
import { PriorityChip } from './PriorityChip';
import { UnitStatusChip } from './UnitStatusChip';
import { recordedSteps, stepTimeName, stepTimeText } from './callLifeText';
import { useNow } from './useNow';

function TimeRow({ step, at, action }: { step: TimedStep | 'cancelled' | 'call_received'; at: string; action?: ReactNode }) {
  const { name, nemsis } = stepTimeName(step);
  const now = useNow();
  return (
    <Box component="li" data-testid="call-time" data-step={step} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>{name}</Typography>
        <Typography variant="caption" color="text.secondary">{nemsis}</Typography>
      </Box>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>{stepTimeText(at, now)}</Typography>
      {action}
    </Box>
  );
}

interface Correcting { assignment: AssignmentDto; step: TimedStep; at: string }

/**
 * A call's recorded times (GET /api/cases/{id}): when it came in, and each assignment's steps
 * with their NEMSIS names, every one with "Correct time".
 */
export function CallTimes({ caseId }: { caseId: string }) {
  const detail = useQuery(queries.caseDetail(caseId));
  const [correcting, setCorrecting] = useState<Correcting | null>(null);

  if (detail.isPending) {
    return <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status"><CircularProgress size={16} /><Typography variant="body2">Loading...</Typography></Stack>;
  }
  if (detail.isError) return <Typography variant="body2" color="error">Could not load the call's times</Typography>;
  const { case: c, assignments } = detail.data;
  return (
    <Box data-testid="call-times">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 700 }}>Call times</Typography>
        <PriorityChip priority={c.priority} />
      </Stack>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        <TimeRow step="call_received" at={c.call_received_at} />
      </Box>
      {assignments.length === 0 && <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>No ambulance assigned yet</Typography>}
      {assignments.map((a) => (
        <Box key={a.id} component="section" aria-label={`Assignment of ${a.license_plate ?? 'an ambulance'}`} data-testid="call-assignment" sx={{ mt: 1.5 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 700 }}>{a.license_plate ?? 'Ambulance'}</Typography>
            <UnitStatusChip status={a.status} />
          </Stack>
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {recordedSteps(a).map(({ step, at }) => (
              <TimeRow
                key={step}
                step={step}
                at={at}
                action={(
                  <Button
                    size="small"
                    startIcon={<EditIcon />}
                    onClick={() => setCorrecting({ assignment: a, step, at })}
                    aria-label={`Correct ${stepTimeName(step).name} time${a.license_plate ? ` of ${a.license_plate}` : ''}`}
                  >
                    Correct time
                  </Button>
                )}
              />
            ))}
            {a.cancelled_at && <TimeRow step="cancelled" at={a.cancelled_at} />}
          </Box>
        </Box>
      ))}
      {correcting && <CorrectTimeDialog caseId={caseId} {...correcting} onClose={() => setCorrecting(null)} />}
    </Box>
  );
}
