import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { INTERVAL_LABELS, INTERVALS, type GroupReport, type PriorityReport } from '../../api/contract';
import { formatClock, priorityTag } from '../../domain/callLife';
import { FigureTable } from './FigureTable';
import { ReportSection } from './ReportSection';
import { ARRIVALS, clockOr, clockStopText, minutesOf, percentOr } from './reportText';

// Short enough to fit under narrow bars side by side; the section's description spells them out.
const BARS = ['Median', 'Mean', '90th'] as const;

/**
 * One priority's response times: median, mean and 90th percentile as bars, the target as a
 * line. The report carries figures, not each call's time, so these three stand for the
 * distribution; each priority has its own scale (a P4 target is hours, a P1 target minutes).
 */
function PriorityBars({ report }: { report: PriorityReport }) {
  const theme = useTheme();
  const r = report.intervals.response;
  const values = [minutesOf(r.p50_s), minutesOf(r.mean_s), minutesOf(r.p90_s)];
  const target = report.target_s / 60;
  const top = Math.max(target, ...values.map((v) => v ?? 0)) * 1.15;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 700 }}>{priorityTag(report.priority)} · {r.n} response times</Typography>
      <BarChart
        height={220}
        hideLegend
        skipAnimation
        margin={{ left: 0, right: 8, top: 16, bottom: 0 }}
        xAxis={[{ scaleType: 'band', data: [...BARS] }]}
        yAxis={[{ min: 0, max: top, label: 'minutes', width: 48 }]}
        series={[{
          data: values,
          label: `${priorityTag(report.priority)} response`,
          color: theme.palette.secondary.main,
          valueFormatter: (v) => (v == null ? 'no figure' : formatClock(v * 60)),
        }]}
      >
        <ChartsReferenceLine
          y={target}
          label={`Target ${formatClock(report.target_s)}`}
          labelAlign="start"
          lineStyle={{ stroke: theme.palette.error.main, strokeDasharray: '6 4', strokeWidth: 2 }}
          labelStyle={{ fill: theme.palette.error.main, fontSize: 12, fontWeight: 700 }}
        />
      </BarChart>
    </Box>
  );
}

/**
 * Response times per priority against their targets, with every interval's figures in the tables:
 * the response (to the arrival that stops the priority's clock), and both arrivals of a call with
 * several units, first on scene and able to convey on scene.
 */
export function ResponseChart({ priorities, overall }: { priorities: PriorityReport[]; overall: GroupReport }) {
  const sorted = [...priorities].sort((a, b) => a.priority - b.priority);
  const shown = sorted.filter((p) => p.intervals.response.n > 0);
  return (
    <ReportSection
      id="response"
      title="Response times by priority"
      description={'Call received to on scene, at the arrival that stops each priority\'s clock (the first unit, or the first able to convey): median, '
        + 'mean and 90th percentile per priority; the dashed line is the 90th-percentile target. The tables add both arrivals per priority.'}
      chart={(
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: `repeat(${Math.max(1, shown.length)}, 1fr)` } }}>
          {shown.map((p) => <PriorityBars key={p.priority} report={p} />)}
        </Box>
      )}
      table={(
        <>
          <FigureTable
            testId="response-table"
            caption="Response (call received to on scene) per priority, on scene being the arrival that stops the priority's clock (next table)"
            columns={['Priority', 'Calls', 'With a response time', 'Missing', 'Median', 'Mean', '90th percentile', 'Target', 'Within target']}
            rows={sorted.map((p) => {
              const r = p.intervals.response;
              return {
                key: String(p.priority),
                cells: [priorityTag(p.priority), p.calls, r.n, r.missing, clockOr(r.p50_s), clockOr(r.mean_s), clockOr(r.p90_s), formatClock(p.target_s), percentOr(p.response_within_target.share)],
              };
            })}
          />
          <Box sx={{ mt: 2 }}>
            <FigureTable
              testId="arrivals-table"
              caption="First on scene and able to convey on scene, by priority: call received to the first unit on scene, whatever it can do, and to the first unit able to convey a patient"
              columns={['Priority', 'Response clock stops at', ...ARRIVALS.flatMap((k) => ['calls with it', 'median', 'mean', '90th percentile'].map((c) => `${INTERVAL_LABELS[k]}: ${c}`))]}
              rows={sorted.map((p) => ({
                key: String(p.priority),
                cells: [priorityTag(p.priority), clockStopText(p.clock_stop), ...ARRIVALS.flatMap((k) => {
                  const f = p.intervals[k];
                  return [f.n, clockOr(f.p50_s), clockOr(f.mean_s), clockOr(f.p90_s)];
                })],
              }))}
            />
          </Box>
          <Box sx={{ mt: 2 }}>
            <FigureTable
              testId="intervals-table"
              caption={`Every interval over all ${overall.calls} calls (a call without a step is counted as missing, never as zero)`}
              columns={['Interval', 'Calls with it', 'Missing', 'Median', 'Mean', '90th percentile']}
              rows={INTERVALS.map((k) => {
                const f = overall.intervals[k];
                return { key: k, cells: [INTERVAL_LABELS[k], f.n, f.missing, clockOr(f.p50_s), clockOr(f.mean_s), clockOr(f.p90_s)] };
              })}
            />
          </Box>
        </>
      )}
    />
  );
}
