import Chip from '@mui/material/Chip';
import { createSvgIcon } from '@mui/material/utils';
import { AmbulanceIcon } from '../../layout/icons';
import { capabilityHint, capabilityWords, isResponderCar } from './capabilityWords';

/** Material Design's DirectionsCar (Apache-2.0): a rapid response car, which cannot convey. */
export const CarIcon = createSvgIcon(
  <path d="M18.92 6.01C18.72 5.42 18.16 5 17.5 5h-11c-.66 0-1.21.42-1.42 1.01L3 12v8c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-1h12v1c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-8l-2.08-5.99zM6.5 16c-.83 0-1.5-.67-1.5-1.5S5.67 13 6.5 13s1.5.67 1.5 1.5S7.33 16 6.5 16zm11 0c-.83 0-1.5-.67-1.5-1.5s.67-1.5 1.5-1.5 1.5.67 1.5 1.5-.67 1.5-1.5 1.5zM5 11l1.5-4.5h11L19 11H5z" />,
  'DirectionsCar',
);

/** A car for a responder, an ambulance for every other unit: the shape says it where colour cannot. */
export function CapabilityIcon({ capability, fontSize = 'small' }: { capability: string | null | undefined; fontSize?: 'small' | 'inherit' }) {
  return isResponderCar(capability) ? <CarIcon fontSize={fontSize} data-icon="car" /> : <AmbulanceIcon fontSize={fontSize} data-icon="ambulance" />;
}

/**
 * What a unit can do, in words with its icon ("ALS", "Car — cannot convey"), its description
 * on hover. Outlined and neutral: the unit status chips beside it own the colours.
 */
export function CapabilityChip({ capability, testId = 'unit-capability' }: { capability: string | null | undefined; testId?: string }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<CapabilityIcon capability={capability} />}
      label={capabilityWords(capability)}
      title={capabilityHint(capability) || undefined}
      data-testid={testId}
      data-capability={capability ?? ''}
      sx={{ fontWeight: 600, '& .MuiChip-icon': { color: 'text.secondary' } }}
    />
  );
}
