import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CaseDto } from '../../api/contract';
import { intakeAddressText, mismatchText } from '../../domain/positionText';
import { WarningIcon } from '../../layout/icons';

/**
 * A call's two locations in words: the address taken on the phone, and a warning when the
 * patient's GPS lies far from it (a wrong address, found in seconds). The warning has an icon
 * and words, never colour alone. Nothing when the call has neither.
 */
export function CaseLocationNotes({ item, dense = false }: { item: Pick<CaseDto, 'intake_location' | 'location_mismatch_m'>; dense?: boolean }) {
  const address = intakeAddressText(item);
  const mismatch = mismatchText(item);
  if (!address && !mismatch) return null;
  const variant = dense ? 'caption' : 'body2';
  return (
    <Box sx={{ display: 'grid', gap: 0.25, mt: 0.25 }}>
      {address && (
        <Typography variant={variant} color="text.secondary" data-testid="case-intake-address" sx={{ overflowWrap: 'anywhere' }}>
          {address}
        </Typography>
      )}
      {mismatch && (
        <Box
          role="note"
          data-testid="case-location-mismatch"
          sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, color: (t) => t.palette.warning[t.palette.mode === 'dark' ? 'light' : 'dark'], fontWeight: 700, typography: variant }}
        >
          <WarningIcon sx={{ fontSize: 16, mt: '2px', flexShrink: 0 }} />
          <span>{mismatch}</span>
        </Box>
      )}
    </Box>
  );
}
