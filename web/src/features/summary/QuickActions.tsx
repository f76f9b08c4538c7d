import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AddCircleIcon, AmbulanceIcon, MapIcon } from '../../layout/icons';
import { ListItemLink } from '../../layout/links';
import { ChevronRightIcon } from '../../layout/icons';

const ACTIONS: { label: string; hint: string; to: NonNullable<LinkProps['to']>; icon: ReactNode }[] = [
  { label: 'Create New Emergency Case', hint: 'Register a case and dispatch an ambulance', to: '/dashboard/new-case', icon: <AddCircleIcon color="primary" /> },
  { label: 'View Ambulance Map', hint: 'See every ambulance on the map', to: '/dashboard/ambulance-map', icon: <MapIcon color="info" /> },
  { label: 'Track Ambulances', hint: 'Fleet status, current emergencies and trackers', to: '/dashboard/ambulance-tracking', icon: <AmbulanceIcon color="success" /> },
];

export function QuickActions() {
  return (
    <Card component="section" aria-labelledby="quick-actions">
      <CardContent>
        <Typography id="quick-actions" variant="h6" component="h2" sx={{ mb: 1 }}>Quick Actions</Typography>
        <List disablePadding component="div">
          {ACTIONS.map((a) => (
            <ListItemLink key={String(a.to)} to={a.to} sx={{ borderRadius: 2, border: 1, borderColor: 'divider', py: 1.25, '&:not(:last-of-type)': { mb: 1.25 } }}>
              <ListItemIcon sx={{ minWidth: 44 }}>{a.icon}</ListItemIcon>
              <ListItemText primary={a.label} secondary={a.hint} slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
              <ChevronRightIcon color="action" />
            </ListItemLink>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
