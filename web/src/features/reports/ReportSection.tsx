import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';

/**
 * One chart of the Reports screen with its figures in a table (for screen readers and for
 * copying) behind a "Show table" disclosure. The chart itself is one image to assistive
 * technology, named after the section and pointing at the table. With `empty` (the period has
 * nothing for this section) the section says so in words instead of drawing an empty chart.
 */
export function ReportSection({ id, title, description, chart, table, empty }: {
  id: string;
  title: string;
  description: string;
  chart: ReactNode;
  table: ReactNode;
  empty?: { title: string; hint: string };
}) {
  const [open, setOpen] = useState(false);
  return (
    <Card component="section" aria-labelledby={`${id}-title`} data-testid={`report-${id}`} sx={{ p: { xs: 2, sm: 2.5 } }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <Box>
          <Typography id={`${id}-title`} variant="h6" component="h2">{title}</Typography>
          <Typography variant="body2" color="text.secondary">{description}</Typography>
        </Box>
        {!empty && (
          <Button size="small" variant="outlined" aria-expanded={open} aria-controls={`${id}-table`} onClick={() => setOpen((o) => !o)} sx={{ flexShrink: 0 }}>
            {open ? 'Hide table' : 'Show table'}
          </Button>
        )}
      </Box>
      {empty ? (
        <Box sx={{ py: 4, textAlign: 'center' }}>
          <Typography component="p" sx={{ fontWeight: 700 }} data-testid={`${id}-empty`}>{empty.title}</Typography>
          <Typography variant="body2" color="text.secondary">{empty.hint}</Typography>
        </Box>
      ) : (
        <>
          <Box role="img" aria-label={`${title}, drawn as a chart; its figures are in the table (Show table).`} sx={{ mt: 1 }}>
            {chart}
          </Box>
          <Collapse in={open} id={`${id}-table`}>
            <Box sx={{ overflowX: 'auto', mt: 1 }}>{table}</Box>
          </Collapse>
        </>
      )}
    </Card>
  );
}
