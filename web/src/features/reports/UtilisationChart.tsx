import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import type { UtilisationReport } from '../../api/contract';
import { FigureTable } from './FigureTable';
import { ReportSection } from './ReportSection';
import { hoursText, percentOr } from './reportText';

/** Unit hour utilisation per ambulance: time committed to calls ÷ time on shift. */
export function UtilisationChart({ report }: { report: UtilisationReport }) {
  const theme = useTheme();
  const rows = [...report.ambulances].sort((a, b) => a.license_plate.localeCompare(b.license_plate));
  const percents = rows.map((a) => (a.share == null ? null : Math.round(a.share * 1000) / 10));
  return (
    <ReportSection
      id="utilisation"
      title="Unit hour utilisation"
      description={`Time committed to calls ÷ time on shift, per ambulance; ${percentOr(report.overall.share)} across the fleet.`}
      chart={(
        <BarChart
          height={56 + 32 * Math.max(1, rows.length)}
          layout="horizontal"
          hideLegend
          skipAnimation
          yAxis={[{ scaleType: 'band', data: rows.map((a) => a.license_plate), width: 110 }]}
          xAxis={[{ min: 0, max: Math.max(100, ...percents.map((v) => v ?? 0)), label: '% of time on shift committed to calls' }]}
          series={[{
            data: percents,
            label: 'Utilisation',
            color: theme.palette.secondary.main,
            valueFormatter: (v) => (v == null ? 'not on shift' : `${v} %`),
          }]}
        />
      )}
      table={(
        <FigureTable
          testId="utilisation-table"
          caption="Unit hour utilisation per ambulance"
          columns={['Ambulance', 'Committed to calls', 'On shift', 'Utilisation']}
          rows={[
            ...rows.map((a) => ({ key: `${a.ambulance_id ?? a.license_plate}`, cells: [a.license_plate, hoursText(a.committed_s), hoursText(a.on_shift_s), percentOr(a.share)] })),
            { key: 'overall', cells: ['All ambulances', hoursText(report.overall.committed_s), hoursText(report.overall.on_shift_s), percentOr(report.overall.share)] },
          ]}
        />
      )}
    />
  );
}
