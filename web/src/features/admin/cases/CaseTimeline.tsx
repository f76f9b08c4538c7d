import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queries } from '../../../api/queries';
import { formatDateTime } from '../../../domain/caseRules';
import { ExpandMoreIcon } from '../../../layout/icons';
import { stepTimeText } from '../../shared/callLifeText';
import { useNow } from '../../shared/useNow';
import { actionText, actorText, changesOf, entrySummary } from './timelineText';

/** The case's history (admins only), collapsed until opened; loaded on first opening. */
export function CaseTimeline({ caseId }: { caseId: string }) {
  const [expanded, setExpanded] = useState(false);
  const timeline = useQuery({ ...queries.caseTimeline(caseId), enabled: expanded });
  const ambulances = useQuery(queries.ambulances());
  const operators = useQuery({ ...queries.operators(), enabled: expanded });
  const profile = useQuery({ ...queries.profile(), enabled: expanded });

  const now = useNow();
  const timeOf = (iso: string) => stepTimeText(iso, now);
  const plateOf = (id: number) => ambulances.data?.find((a) => a.id === id)?.license_plate;
  const nameOf = (id: number) =>
    profile.data?.user.id === id ? profile.data.user.name : operators.data?.find((u) => u.id === id)?.name;

  return (
    <Accordion expanded={expanded} onChange={(_e, open) => setExpanded(open)} disableGutters variant="outlined" sx={{ borderRadius: 2, '&::before': { display: 'none' } }} slotProps={{ transition: { unmountOnExit: true } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="case-timeline" id="case-timeline-header">
        <Typography sx={{ fontWeight: 600 }}>Case timeline</Typography>
      </AccordionSummary>
      <AccordionDetails id="case-timeline" sx={{ pt: 0 }}>
        {timeline.isPending && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status"><CircularProgress size={16} /><Typography variant="body2">Loading...</Typography></Stack>
        )}
        {timeline.isError && <Typography variant="body2" color="error">Could not load the timeline</Typography>}
        {timeline.data?.length === 0 && <Typography variant="body2" color="text.secondary">No history yet</Typography>}
        <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="Case timeline entries">
          {timeline.data?.map((e) => {
            const summary = entrySummary(e, nameOf, timeOf);
            return (
            <Box component="li" key={e.id} data-action={e.action} sx={{ borderLeft: 3, borderColor: 'primary.light', pl: 1.5 }}>
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                <Chip size="small" label={actionText(e.action)} sx={{ fontWeight: 600 }} />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>{actorText(e, nameOf)}</Typography>
                <Typography variant="caption" color="text.secondary">{formatDateTime(e.created_at)}</Typography>
              </Stack>
              {summary && <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }} data-testid="timeline-summary">{summary}</Typography>}
              {changesOf(e, plateOf).map((c) => (
                <Typography key={c.field} variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }}>
                  <Box component="span" sx={{ color: 'text.secondary' }}>{c.field}: </Box>
                  {c.before !== undefined && <Box component="span" sx={{ color: 'text.secondary' }}>{c.before}</Box>}
                  {c.before !== undefined && c.after !== undefined && ' → '}
                  {c.after !== undefined && <Box component="span" sx={{ fontWeight: 600 }}>{c.after}</Box>}
                </Typography>
              ))}
            </Box>
            );
          })}
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
