import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { DemandReport } from '../../api/contract';
import { heatFill, hourText, intensityOf, WEEKDAY_NAMES } from './reportText';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/**
 * Calls by hour of week as a heat map that is itself a table: a row per weekday, a column per
 * hour, each cell its count on a fill as strong as the count is near the busiest hour. So
 * screen readers and copying get the same figures the eye sees (MUI X's heat map is Pro only).
 */
export function DemandHeatmap({ report }: { report: DemandReport }) {
  const max = Math.max(0, ...report.counts.flat());
  const total = report.counts.flat().reduce((a, b) => a + b, 0);
  return (
    <Card component="section" aria-labelledby="demand-title" data-testid="report-demand" sx={{ p: { xs: 2, sm: 2.5 } }}>
      <Typography id="demand-title" variant="h6" component="h2">Demand by hour of week</Typography>
      <Typography variant="body2" color="text.secondary">
        Calls received per weekday and hour ({report.tz}); the stronger a cell’s colour, the nearer it is to the busiest hour ({max} calls).
      </Typography>
      <Box sx={{ overflowX: 'auto', mt: 1.5 }}>
        <Box
          component="table"
          data-testid="demand-table"
          sx={{
            borderCollapse: 'separate', borderSpacing: '2px', width: '100%', minWidth: 760, tableLayout: 'fixed',
            '& caption': { captionSide: 'top', textAlign: 'left', typography: 'body2', color: 'text.secondary', pb: 0.5 },
            '& th': { typography: 'caption', fontWeight: 700, color: 'text.secondary', p: 0.25 },
            '& th[scope=row]': { textAlign: 'left', width: 44 },
            '& td': { typography: 'caption', textAlign: 'center', py: 0.75, borderRadius: 0.5, fontVariantNumeric: 'tabular-nums' },
          }}
        >
          <caption>Calls per weekday (rows) and hour of the day (columns), {total} in all</caption>
          <thead>
            <tr>
              <td />
              {HOURS.map((h) => <th key={h} scope="col" aria-label={`from ${hourText(h)}`}>{String(h).padStart(2, '0')}</th>)}
            </tr>
          </thead>
          <tbody>
            {WEEKDAY_NAMES.map((day, d) => (
              <tr key={day}>
                <th scope="row"><abbr title={day} style={{ textDecoration: 'none' }}>{day.slice(0, 3)}</abbr></th>
                {HOURS.map((h) => {
                  const count = report.counts[d]?.[h] ?? 0;
                  const { opacity, strong } = heatFill(intensityOf(count, max));
                  return (
                    <Box
                      component="td"
                      key={h}
                      data-count={count}
                      sx={(t) => ({
                        bgcolor: alpha(t.palette.secondary.main, opacity),
                        color: strong ? t.palette.secondary.contrastText : t.palette.text.primary,
                      })}
                    >
                      {count}
                    </Box>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Box>
      </Box>
    </Card>
  );
}
