import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';
import {
  type Approach, type FixText, ESTIMATE_HINT, ESTIMATE_TEXT, STALE_TEXT, caseApproach, caseFix, distanceAwayText,
} from '../../domain/liveText';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useEtaModel } from '../map/liveHooks';
import { useNow } from '../shared/useNow';
import { CaseLocationNotes } from './CaseLocationNotes';

/**
 * A case's live position words: the patient's last fix (time, accuracy, 'Stale' after two
 * minutes) and its ambulance's distance and ETA, from the live caches (cases, ambulances)
 * and the server's arrival model. The clock re-renders every ~15 s; nothing is refetched.
 */
export function useCaseLive(item: CaseDto) {
  const now = useNow();
  const model = useEtaModel();
  const ambulances = useQuery({ ...queries.ambulances(), refetchInterval: usePollingFallback(30_000) });
  return {
    fix: caseFix(item, now),
    approach: caseApproach(item, ambulances.data ?? [], model),
  };
}

/** The small amber 'Stale' mark of an old position. */
export function StaleChip({ title = 'No new position for more than 2 minutes', testId }: { title?: string; testId?: string }) {
  return (
    <Tooltip title={title}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        label={STALE_TEXT}
        data-testid={testId}
        sx={{ height: 20, fontSize: 11, fontWeight: 700, '& .MuiChip-label': { px: 0.75 } }}
      />
    </Tooltip>
  );
}

/** 'Last fix: 10:42:13 · ±20 m', and 'Stale' when it is more than two minutes old. */
export function PatientFixLine({ fix }: { fix: FixText }) {
  return (
    <Box
      data-testid="case-fix"
      data-stale={fix.stale}
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 0.75, rowGap: 0.25, mt: 0.25 }}
    >
      <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        Last fix: {fix.time}
        {fix.accuracy && <> · <span data-testid="case-accuracy">{fix.accuracy}</span></>}
      </Typography>
      {fix.stale && <StaleChip title="The patient's position is more than 2 minutes old" testId="case-fix-stale" />}
    </Box>
  );
}

/** 'Estimate' beside an ETA, with what the estimate is. */
export function EstimateChip() {
  return (
    <Tooltip title={ESTIMATE_HINT}>
      <Chip size="small" variant="outlined" label={ESTIMATE_TEXT} sx={{ height: 20, fontSize: 11, fontWeight: 600, '& .MuiChip-label': { px: 0.75 } }} />
    </Tooltip>
  );
}

/**
 * The ambulance's straight-line distance to the patient and the ETA ('Arriving in about N min'),
 * labelled as an estimate. `plate` names the ambulance (the case screens); the fleet row omits it.
 */
export function ApproachLines({ approach, plate, dense = false }: { approach: Approach; plate?: string; dense?: boolean }) {
  return (
    <Box data-testid="case-approach" data-meters={Math.round(approach.meters)} sx={{ display: 'grid', gap: 0.25 }}>
      <Typography variant={dense ? 'caption' : 'body2'} color="text.secondary" data-testid="case-distance" sx={{ overflowWrap: 'anywhere' }}>
        {distanceAwayText(approach, plate)}
      </Typography>
      {approach.eta && (
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }}>
          <Typography variant={dense ? 'caption' : 'body2'} data-testid="case-eta" sx={{ fontWeight: 700, color: 'text.primary' }}>
            {approach.eta}
          </Typography>
          <EstimateChip />
        </Box>
      )}
    </Box>
  );
}

/** The address given, a location mismatch, the fix and approach lines of one case, compact (All Cases table and its phone list). */
export function CaseLiveLines({ item }: { item: CaseDto }) {
  const live = useCaseLive(item);
  const notes = item.intake_location != null || item.location_mismatch_m != null;
  if (!live.fix && !live.approach && !notes) return null;
  return (
    <Box sx={{ display: 'grid', gap: 0.5, mt: 0.25 }}>
      <CaseLocationNotes item={item} dense />
      {live.fix && <PatientFixLine fix={live.fix} />}
      {live.approach && <ApproachLines approach={live.approach} plate={live.approach.ambulance.license_plate} dense />}
    </Box>
  );
}
