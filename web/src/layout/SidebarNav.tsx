import List from '@mui/material/List';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import { useLocation, type LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ListItemLink } from './links';

export interface NavItem {
  label: string;
  to: NonNullable<LinkProps['to']>;
  icon: ReactNode;
  /** Active only on this exact path (index links); otherwise nested paths count too. */
  exact?: boolean;
}

const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

function isActive(pathname: string, item: NavItem) {
  const here = trimSlash(pathname);
  const target = trimSlash(String(item.to));
  return here === target || (!item.exact && here.startsWith(`${target}/`));
}

/** A list of sidebar links; the active one is highlighted; collapsed shows icons with tooltips. */
export function SidebarNav({ items, collapsed, onNavigate }: { items: NavItem[]; collapsed: boolean; onNavigate?: () => void }) {
  const pathname = useLocation({ select: (location) => location.pathname });

  return (
    <List component="nav" sx={{ px: 1 }}>
      {items.map((item) => {
        const active = isActive(pathname, item);
        const link = (
          <ListItemLink
            key={String(item.to)}
            to={item.to}
            activeOptions={{ exact: Boolean(item.exact), includeSearch: false }}
            selected={active}
            onClick={onNavigate}
            sx={{
              borderRadius: 2,
              mb: 0.5,
              minHeight: 44,
              justifyContent: collapsed ? 'center' : 'flex-start',
              '&.Mui-selected': { bgcolor: 'primary.main', color: 'primary.contrastText' },
              '&.Mui-selected:hover': { bgcolor: 'primary.dark' },
              '&.Mui-selected .MuiListItemIcon-root': { color: 'inherit' },
            }}
          >
            <ListItemIcon sx={{ minWidth: 0, mr: collapsed ? 0 : 2, justifyContent: 'center' }}>{item.icon}</ListItemIcon>
            {!collapsed && <ListItemText primary={item.label} slotProps={{ primary: { noWrap: true } }} />}
          </ListItemLink>
        );
        return collapsed ? (
          <Tooltip key={String(item.to)} title={item.label} placement="right">{link}</Tooltip>
        ) : link;
      })}
    </List>
  );
}
