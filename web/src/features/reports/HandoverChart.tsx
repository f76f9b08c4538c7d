import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import type { HandoverReport } from '../../api/contract';
import { formatClock } from '../../domain/callLife';
import { FigureTable } from './FigureTable';
import { ReportSection } from './ReportSection';
import { PREALERT_COLUMNS, handoverBars, handoverColumns, handoverRows, handoverSummary, prealertRows } from './handoverText';

/**
 * Hospital handover per destination (issue 30): arrival at hospital to the transfer of care, its
 * median and 90th percentile per hospital as bars against the first target (15 min by default),
 * and every figure (shares within the targets, over the last, hours lost; the pre-alerts) in the tables.
 */
export function HandoverChart({ report }: { report: HandoverReport }) {
  const theme = useTheme();
  const bars = handoverBars(report);
  const first = report.targets_min[0];
  const top = Math.max(first, ...bars.flatMap((b) => [b.p50 ?? 0, b.p90 ?? 0])) * 1.1;
  const nothing = report.overall.arrivals === 0 && report.overall.prealerts_sent === 0;
  const tooltip = (v: number | null) => (v == null ? 'none handed over' : formatClock(v * 60));
  return (
    <ReportSection
      id="handover"
      title="Hospital handover"
      description={nothing ? handoverSummary(report) : `Arrival at hospital to handover of the patient, per destination: median and 90th percentile `
        + `in minutes; the dashed line is the ${first}-minute standard. ${handoverSummary(report)}`}
      empty={nothing ? { title: 'No arrivals at hospital in this period', hint: 'Handover times appear once crews reach a hospital.' } : undefined}
      chart={(
        <BarChart
          height={72 + 44 * Math.max(1, bars.length)}
          layout="horizontal"
          skipAnimation
          yAxis={[{ scaleType: 'band', data: bars.map((b) => b.label), width: 150 }]}
          xAxis={[{ min: 0, max: top, label: 'minutes from arrival to handover' }]}
          series={[
            { data: bars.map((b) => b.p50), label: 'Median', color: theme.palette.secondary.main, valueFormatter: tooltip },
            { data: bars.map((b) => b.p90), label: '90th percentile', color: theme.palette.warning.dark, valueFormatter: tooltip },
          ]}
        >
          <ChartsReferenceLine
            x={first}
            label={`${first} min`}
            labelAlign="start"
            lineStyle={{ stroke: theme.palette.error.main, strokeDasharray: '6 4', strokeWidth: 2 }}
            labelStyle={{ fill: theme.palette.error.main, fontSize: 12, fontWeight: 700 }}
          />
        </BarChart>
      )}
      table={(
        <>
          <FigureTable
            testId="handover-table"
            caption="Handover per destination: arrival at hospital to handover (a unit not handed over is counted as an arrival only)"
            columns={handoverColumns(report.targets_min)}
            rows={handoverRows(report)}
          />
          <Box sx={{ mt: 2 }}>
            <FigureTable
              testId="prealert-table"
              caption="Pre-alerts per hospital they were sent to, and the time the hospital took to acknowledge them"
              columns={PREALERT_COLUMNS}
              rows={prealertRows(report)}
            />
          </Box>
        </>
      )}
    />
  );
}
