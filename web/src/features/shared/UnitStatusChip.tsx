import Chip from '@mui/material/Chip';
import { UNIT_STATUS_COLORS, UNIT_STATUS_LABELS } from '../../domain/callLife';

/**
 * A unit's status in its colour and its words ("En route"); an ended assignment's status in grey
 * outline. `label`/`colour` override for a status the app does not know (the spec's own words).
 */
export function UnitStatusChip({ status, label, colour, testId = 'unit-status-chip' }: {
  /** A UnitStatus or AssignmentStatus; any other text is shown as it is. */
  status: string;
  label?: string;
  colour?: string;
  testId?: string;
}) {
  const fill = colour ?? (UNIT_STATUS_COLORS as Partial<Record<string, string>>)[status];
  return (
    <Chip
      size="small"
      data-testid={testId}
      data-status={status}
      data-unit-status={status}
      label={label ?? (UNIT_STATUS_LABELS as Partial<Record<string, string>>)[status] ?? status}
      variant={fill ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600, ...(fill && { bgcolor: fill, color: '#fff' }) }}
    />
  );
}
