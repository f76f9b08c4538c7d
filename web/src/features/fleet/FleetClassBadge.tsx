import Chip from '@mui/material/Chip';
import { fleetClassLabel, type FleetClass } from '../../domain/fleetRules';

/**
 * White text on these stays at or above 4.5:1 (WCAG AA); the counter of the same class
 * carries the same hue, so a badge and its counter are read together.
 */
const TONE: Record<FleetClass, string> = {
  emergency: '#c62828',
  available: '#1b5e20',
  busy: '#a14a00',
  other: '#5f6368',
};

/** A fleet row's badge: the class the row is counted in (On Emergency, Available, Busy), else its status. */
export function FleetClassBadge({ fleetClass, status }: { fleetClass: FleetClass; status: string | null | undefined }) {
  return (
    <Chip
      size="small"
      data-testid="fleet-class-badge"
      label={fleetClassLabel(fleetClass, status)}
      sx={{ bgcolor: TONE[fleetClass], color: '#fff', fontWeight: 600 }}
    />
  );
}
