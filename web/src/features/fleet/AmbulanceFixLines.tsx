import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AmbulanceDto } from '../../api/contract';
import { ambulanceFix } from '../../domain/liveText';
import { batteryText, sourceText, staleHint } from '../../domain/positionText';
import { WarningIcon } from '../../layout/icons';
import { StaleChip } from '../cases/LiveCaseInfo';
import { useStaleThresholds } from '../map/liveHooks';
import { useNow } from '../shared/useNow';

/**
 * Under an ambulance's place: 'Last fix: 10:42:13 · via OwnTracks', 'Stale' after its source's
 * threshold, and the battery its device reported ('Battery 15%', with 'Low battery' and a
 * warning icon under 20%). Nothing without a position.
 */
export function AmbulanceFixLines({ ambulance }: { ambulance: Pick<AmbulanceDto, 'location'> }) {
  const now = useNow();
  const thresholds = useStaleThresholds();
  const fix = ambulanceFix(ambulance, now, thresholds);
  if (!fix || !ambulance.location) return null;
  const source = sourceText(ambulance.location.source);
  const battery = batteryText(ambulance.location.battery);
  return (
    <Box sx={{ display: 'grid', gap: 0.25, mt: 0.25 }}>
      <Box data-testid="ambulance-fix" data-stale={fix.stale} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 0.75, rowGap: 0.25 }}>
        <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          Last fix: {fix.time}
          {source && <> · <span data-testid="ambulance-source">{source}</span></>}
        </Typography>
        {fix.stale && <StaleChip title={staleHint(ambulance.location.source, thresholds)} testId="ambulance-fix-stale" />}
      </Box>
      {battery && (
        <Typography
          variant="caption"
          data-testid="ambulance-battery"
          data-low={battery.low}
          sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: battery.low ? 700 : 400, color: battery.low ? 'error.main' : 'text.secondary' }}
        >
          {battery.low && <WarningIcon sx={{ fontSize: 16 }} aria-hidden />}
          {battery.label}
          {battery.warning && <> · {battery.warning}</>}
        </Typography>
      )}
    </Box>
  );
}
