import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
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

/**
 * A list of sidebar links; the active one is highlighted (and announced as the current page);
 * collapsed shows icons with tooltips. Each link sits in its own <li>: a <ul> holding links
 * directly is not a list to a screen reader. The shell wraps the lists in one named <nav>.
 */
export function SidebarNav({ items, collapsed, onNavigate, label }: { items: NavItem[]; collapsed: boolean; onNavigate?: () => void; label?: string }) {
  const pathname = useLocation({ select: (location) => location.pathname });

  return (
    <List sx={{ px: 1 }} aria-label={label}>
      {items.map((item) => {
        const active = isActive(pathname, item);
        const link = (
          <ListItemLink
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
        return (
          <ListItem key={String(item.to)} disablePadding sx={{ display: 'block' }}>
            {collapsed ? <Tooltip title={item.label} placement="right">{link}</Tooltip> : link}
          </ListItem>
        );
      })}
    </List>
  );
}
