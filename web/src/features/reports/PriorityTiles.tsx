import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { INTERVAL_LABELS, type PriorityReport } from '../../api/contract';
import { queries } from '../../api/queries';
import { formatClock, priorityInfo, priorityTag } from '../../domain/callLife';
import { CheckCircleIcon, ErrorIcon } from '../../layout/icons';
import { ARRIVALS, clockOr, clockStopText, percentOr, tileText, VERDICT_TEXT, verdictOf } from './reportText';

const VERDICT_COLOR = { met: 'success', missed: 'error', unknown: 'default' } as const;

/** One priority: its calls, its 90th-percentile response against the target (colour and words), the share within it. */
function PriorityTile({ report }: { report: PriorityReport }) {
  const config = useQuery(queries.config());
  const label = priorityInfo(config.data, report.priority).label;
  const verdict = verdictOf(report);
  const share = report.response_within_target.share;
  const tag = priorityTag(report.priority);
  return (
    <Card
      component="section"
      aria-label={tileText(report, label)}
      data-testid={`report-tile-${tag}`}
      sx={(t) => ({ p: 2, display: 'flex', flexDirection: 'column', gap: 0.75, borderTop: `4px solid ${verdict === 'unknown' ? t.palette.divider : t.palette[VERDICT_COLOR[verdict]].main}` })}
    >
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>{tag} {label}</Typography>
      <Typography variant="body2" color="text.secondary" data-testid="tile-calls">{report.calls} {report.calls === 1 ? 'call' : 'calls'}</Typography>
      <Box>
        <Typography variant="body2" color="text.secondary">90th percentile response</Typography>
        <Typography component="p" variant="h4" sx={{ fontWeight: 800, fontVariantNumeric: 'tabular-nums' }} data-testid="tile-p90">
          {clockOr(report.intervals.response.p90_s)}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="tile-target">(target {formatClock(report.target_s)})</Typography>
      </Box>
      <Chip
        size="small"
        color={VERDICT_COLOR[verdict]}
        icon={verdict === 'met' ? <CheckCircleIcon /> : verdict === 'missed' ? <ErrorIcon /> : undefined}
        label={VERDICT_TEXT[verdict]}
        sx={{ alignSelf: 'flex-start', fontWeight: 700 }}
      />
      <Typography variant="body2" data-testid="tile-share">{percentOr(share)} within target</Typography>
      {share != null && (
        <LinearProgress
          variant="determinate"
          value={share * 100}
          color={VERDICT_COLOR[verdict] === 'default' ? 'inherit' : VERDICT_COLOR[verdict]}
          aria-label={`${tag} share within target`}
          sx={{ height: 6, borderRadius: 3 }}
        />
      )}
      {/* Both arrivals of a call with several units, whichever of them stops this priority's clock. */}
      <Box component="dl" sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 1, rowGap: 0.25 }}>
        {ARRIVALS.map((k) => (
          <Box key={k} sx={{ display: 'contents' }} data-testid={`tile-${k}`}>
            <Typography component="dt" variant="body2" color="text.secondary">{INTERVAL_LABELS[k]}, 90th</Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 700, fontVariantNumeric: 'tabular-nums', textAlign: 'right' }}>
              {clockOr(report.intervals[k].p90_s)}
            </Typography>
          </Box>
        ))}
      </Box>
      <Typography variant="caption" color="text.secondary" data-testid="tile-clock-stop">Response clock stops at: {clockStopText(report.clock_stop)}</Typography>
    </Card>
  );
}

/** A tile per priority, most urgent first. */
export function PriorityTiles({ priorities }: { priorities: PriorityReport[] }) {
  const sorted = [...priorities].sort((a, b) => a.priority - b.priority);
  return (
    <Box component="section" aria-labelledby="tiles-title">
      <Typography id="tiles-title" variant="h6" component="h2" sx={{ mb: 1 }}>Response against target, by priority</Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } }}>
        {sorted.map((p) => <PriorityTile key={p.priority} report={p} />)}
      </Box>
    </Box>
  );
}
