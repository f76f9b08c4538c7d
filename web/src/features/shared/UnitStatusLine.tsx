import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { AssignmentDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { formatClock, turnoutSeconds } from '../../domain/callLife';
import { WarningIcon } from '../../layout/icons';
import { turnoutText, unitLine } from './callLifeText';
import { UnitStatusChip } from './UnitStatusChip';
import { useServerNow } from './useNow';

/**
 * The assignment's unit, its status and for how long ("TS09 EA 1003 · En route · for 1:12"), and
 * the turnout flag ("Turnout 1:12 — not moving") when the crew is still dispatched past the target.
 */
export function UnitStatusLine({ assignment }: { assignment: AssignmentDto }) {
  const now = useServerNow(1000);
  const config = useQuery(queries.config());
  const line = unitLine(assignment, now);
  const turnout = turnoutText(assignment, now, turnoutSeconds(config.data));
  return (
    <Box data-testid="unit-line" data-status={assignment.status} sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        {assignment.license_plate && <Typography variant="body2" sx={{ fontWeight: 600 }}>{assignment.license_plate}</Typography>}
        <UnitStatusChip status={assignment.status} />
        {line.sinceS != null && (
          <Typography variant="body2" color="text.secondary" data-testid="unit-since" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            for {formatClock(line.sinceS)}
          </Typography>
        )}
      </Box>
      {turnout && (
        <Typography variant="body2" data-testid="turnout-flag" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'warning.main', fontWeight: 700 }}>
          <WarningIcon fontSize="small" />{turnout}
        </Typography>
      )}
    </Box>
  );
}
