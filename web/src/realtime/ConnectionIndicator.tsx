import Chip from '@mui/material/Chip';
import { useConnectionState } from './LiveProvider';

/** Live or Reconnecting, in the shell headers. */
export function ConnectionIndicator() {
  const state = useConnectionState();
  const live = state === 'live';
  return (
    <Chip
      size="small"
      data-testid="connection-indicator"
      label={live ? 'Live' : 'Reconnecting'}
      color={live ? 'success' : 'warning'}
      variant={live ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600 }}
    />
  );
}
