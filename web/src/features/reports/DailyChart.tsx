import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import { PRIORITIES, type ResponseTimesReport } from '../../api/contract';
import { formatClock, priorityTag } from '../../domain/callLife';
import { FigureTable } from './FigureTable';
import { ReportSection } from './ReportSection';
import { clockOr, minutesOf } from './reportText';

const dayLabel = (date: string) =>
  new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** The 90th-percentile response per local day, a line per priority (a day without one is a gap). */
export function DailyChart({ daily }: { daily: ResponseTimesReport['daily'] }) {
  const theme = useTheme();
  const dates = [...new Set(daily.map((d) => d.date))].sort();
  const priorities = PRIORITIES.filter((p) => daily.some((d) => d.priority === p));
  const byKey = new Map(daily.map((d) => [`${d.date}|${d.priority}`, d]));
  const colors = [theme.palette.error.main, theme.palette.warning.main, theme.palette.info.main, theme.palette.text.secondary];
  return (
    <ReportSection
      id="daily"
      title="90th percentile response per day"
      description="Each day's 90th-percentile response time per priority, in minutes."
      chart={(
        <LineChart
          height={280}
          skipAnimation
          xAxis={[{ scaleType: 'point', data: dates, valueFormatter: dayLabel }]}
          yAxis={[{ min: 0, label: 'minutes', width: 48 }]}
          series={priorities.map((p) => ({
            label: priorityTag(p),
            color: colors[p - 1],
            connectNulls: false,
            // A day between two gaps has no line to either side: its mark shows it.
            showMark: true,
            data: dates.map((date) => minutesOf(byKey.get(`${date}|${p}`)?.p90_s ?? null)),
            valueFormatter: (v: number | null) => (v == null ? 'no figure' : formatClock(v * 60)),
          }))}
        />
      )}
      table={(
        <FigureTable
          testId="daily-table"
          caption="90th-percentile response per day and priority (calls that day in brackets)"
          columns={['Day', ...priorities.map(priorityTag)]}
          rows={dates.map((date) => ({
            key: date,
            cells: [date, ...priorities.map((p) => {
              const d = byKey.get(`${date}|${p}`);
              return d ? `${clockOr(d.p90_s)} (${d.calls})` : '–';
            })],
          }))}
        />
      )}
    />
  );
}
