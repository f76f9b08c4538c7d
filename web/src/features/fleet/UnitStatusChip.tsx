import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { AmbulanceDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { formatClock, turnoutSeconds } from '../../domain/callLife';
import { WarningIcon } from '../../layout/icons';
import { UnitStatusChip } from '../shared/UnitStatusChip';
import { useServerNow } from '../shared/useNow';
import { unitColor, unitLabel, unitSeconds, unitStatus, unitTurnoutLate } from './unitStatus';

type UnitFields = Pick<AmbulanceDto, 'status'> & Partial<Pick<AmbulanceDto, 'unit_status' | 'unit_status_since'>>;

/** An ambulance's unit status as the shared chip (white on these colours stays at 4.5:1 or more). */
export function AmbulanceUnitChip({ ambulance }: { ambulance: UnitFields }) {
  return <UnitStatusChip testId="unit-status" status={unitStatus(ambulance) ?? ambulance.status} label={unitLabel(ambulance)} colour={unitColor(ambulance)} />;
}

/**
 * The chip with how long the unit has been in its step, and the turnout flag (NFPA 1710: still
 * dispatched after turnout_s). The clock ticks each second without a live region: a screen
 * reader reads it when it gets there, not every second.
 */
export function UnitStatusLive({ ambulance, everyMs = 1000 }: { ambulance: UnitFields; everyMs?: number }) {
  const now = useServerNow(everyMs);
  const turnout = turnoutSeconds(useQuery(queries.config()).data);
  const seconds = unitSeconds(ambulance, now);
  const late = unitTurnoutLate(ambulance, now, turnout);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, alignItems: 'center' }}>
      <AmbulanceUnitChip ambulance={ambulance} />
      {seconds != null && (
        <Typography variant="caption" color="text.secondary" data-testid="unit-status-time" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          for {formatClock(seconds)}
        </Typography>
      )}
      {late && (
        <Chip
          size="small"
          variant="outlined"
          color="error"
          icon={<WarningIcon />}
          data-testid="turnout-late"
          label="Turnout late"
          title={`Still dispatched after ${turnout} s: the crew has not reported en route`}
          sx={{ fontWeight: 700 }}
        />
      )}
    </Box>
  );
}
