import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import type { CaseDto } from '../../../api/contract';
import { CaseStatusBadge } from '../../shared/StatusBadges';
import { PriorityChip } from '../../shared/PriorityChip';
import { ButtonLink } from '../../../layout/links';

/** SPEC §2: patientName or patient_name, else Unknown Patient. */
const nameOf = (c: CaseDto) => c.patientName || c.patient_name || 'Unknown Patient';

/** The first five cases with patient, description, priority and status; `cases` null when they could not be loaded. */
export function RecentCases({ cases, loading }: { cases: CaseDto[] | null; loading: boolean }) {
  return (
    <Card sx={{ p: 2.5, height: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">Recent Cases</Typography>
        <ButtonLink to="/admin-dashboard/cases" size="small">View all</ButtonLink>
      </Box>
      {loading ? (
        <Box>{[0, 1, 2].map((i) => <Skeleton key={i} height={56} />)}</Box>
      ) : cases == null ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }} data-testid="recent-cases-unknown">Cases could not be loaded</Typography>
      ) : cases.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>No recent cases</Typography>
      ) : (
        <List disablePadding aria-label="Recent cases">
          {cases.map((c, i) => (
            <Fragment key={c.id}>
              <ListItem
                divider={i < cases.length - 1}
                disableGutters
                secondaryAction={<Box sx={{ display: 'flex', gap: 0.5 }}><PriorityChip priority={c.priority} short /><CaseStatusBadge status={c.status} /></Box>}
                sx={{ pr: 17 }}
              >
                <ListItemText
                  primary={nameOf(c)}
                  secondary={c.description || 'Emergency'}
                  slotProps={{ primary: { sx: { fontWeight: 600 }, noWrap: true }, secondary: { noWrap: true } }}
                />
              </ListItem>
            </Fragment>
          ))}
        </List>
      )}
    </Card>
  );
}
