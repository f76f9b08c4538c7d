import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ChevronRightIcon } from '../../layout/icons';
import { ListItemLink } from '../../layout/links';

export interface QuickAction { label: string; hint: string; to: NonNullable<LinkProps['to']>; icon: ReactNode }

/** A dashboard's shortcuts to the screens its people use most, each with what it is for. */
export function QuickActions({ actions }: { actions: readonly QuickAction[] }) {
  return (
    <Card component="section" aria-labelledby="quick-actions" sx={{ height: '100%' }}>
      <CardContent>
        <Typography id="quick-actions" variant="h6" component="h2" sx={{ mb: 1 }}>Quick Actions</Typography>
        <List disablePadding component="div">
          {actions.map((a) => (
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
