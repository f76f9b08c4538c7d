import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AmbulanceIcon, GroupIcon, ListIcon } from '../../../layout/icons';
import { ButtonLink } from '../../../layout/links';

/** Shortcuts to the admin's three management screens. */
export function QuickActions() {
  return (
    <Card sx={{ p: 2.5, height: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>Quick Actions</Typography>
      <Stack spacing={1.25}>
        <ButtonLink to="/admin-dashboard/operators" variant="contained" startIcon={<GroupIcon />} sx={{ justifyContent: 'flex-start' }}>
          Manage Operators
        </ButtonLink>
        <ButtonLink to="/admin-dashboard/ambulances" variant="contained" color="secondary" startIcon={<AmbulanceIcon />} sx={{ justifyContent: 'flex-start' }}>
          Manage Ambulances
        </ButtonLink>
        <ButtonLink to="/admin-dashboard/cases" variant="outlined" startIcon={<ListIcon />} sx={{ justifyContent: 'flex-start' }}>
          View All Cases
        </ButtonLink>
      </Stack>
    </Card>
  );
}
