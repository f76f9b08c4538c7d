import { useState, type MouseEvent, type ReactNode } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { ChevronLeftIcon, MenuIcon } from './icons';
import { LogoMark } from './Logo';
import { SidebarNav, type NavItem } from './SidebarNav';
import { UserBadge } from './UserBadge';
import { ConnectionIndicator } from '../realtime/ConnectionIndicator';

const OPEN_WIDTH = 256;
const MAIN_ID = 'main-content';

/** Moves focus (not only the scroll position) to the screen, without touching the router's URL. */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById(MAIN_ID)?.focus();
}
const MINI_WIDTH = 76;

export interface AppShellProps {
  /** Shown at the top of the sidebar. */
  sidebarTitle: string;
  sidebarSubtitle: string;
  /** Shown in the header bar. */
  headerTitle: string;
  nav: NavItem[];
  /** Links pinned to the bottom of the sidebar. */
  bottomNav: NavItem[];
  defaultOpen?: boolean;
  headerActions?: ReactNode;
  children: ReactNode;
}

/**
 * Collapsible sidebar + header + content. On wide screens the sidebar shrinks to icons;
 * on narrow screens it slides over the content.
 */
export function AppShell({ sidebarTitle, sidebarSubtitle, headerTitle, nav, bottomNav, defaultOpen = true, headerActions, children }: AppShellProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [open, setOpen] = useState(defaultOpen && wide);
  const collapsed = wide && !open;
  const width = collapsed ? MINI_WIDTH : OPEN_WIDTH;
  const closeOnNarrow = wide ? undefined : () => setOpen(false);

  // One named landmark for the whole sidebar (brand, main links, account links): two unnamed
  // <nav>s, or a brand outside any landmark, leave a screen reader's landmark list ambiguous.
  const sidebar = (
    <Box component="nav" aria-label="Sidebar" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ gap: 1.25, px: collapsed ? 0 : 2.5, justifyContent: collapsed ? 'center' : 'flex-start' }}>
        <LogoMark size={34} />
        {!collapsed && (
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="subtitle1" noWrap sx={{ fontWeight: 800, lineHeight: 1.1 }}>{sidebarTitle}</Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">{sidebarSubtitle}</Typography>
          </Box>
        )}
        {!wide && (
          <IconButton aria-label="Close sidebar" onClick={() => setOpen(false)} edge="end">
            <ChevronLeftIcon />
          </IconButton>
        )}
      </Toolbar>
      <Divider />
      <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden', pt: 1.5 }}>
        <SidebarNav items={nav} collapsed={collapsed} onNavigate={closeOnNarrow} label="Main" />
      </Box>
      <Divider />
      <Box sx={{ py: 1 }}>
        <SidebarNav items={bottomNav} collapsed={collapsed} onNavigate={closeOnNarrow} label="Account" />
      </Box>
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary' }}>
      {/* First stop for the keyboard: past the sidebar and header, straight to the screen. */}
      <Box
        component="a"
        href={`#${MAIN_ID}`}
        onClick={skipToMain}
        sx={(t) => ({
          position: 'fixed', top: 8, left: 8, zIndex: t.zIndex.tooltip, px: 2, py: 1, borderRadius: 1,
          bgcolor: 'background.paper', color: 'text.primary', fontWeight: 700, boxShadow: 3,
          transform: 'translateY(-200%)',
          '&:focus': { transform: 'none', outline: `3px solid ${t.palette.secondary.main}`, outlineOffset: 2 },
        })}
      >
        Skip to content
      </Box>
      {wide ? (
        <Drawer
          variant="permanent"
          open={open}
          sx={{
            width,
            flexShrink: 0,
            whiteSpace: 'nowrap',
            transition: theme.transitions.create('width'),
            '& .MuiDrawer-paper': { width, overflowX: 'hidden', boxSizing: 'border-box', transition: theme.transitions.create('width') },
          }}
        >
          {sidebar}
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={open}
          onClose={() => setOpen(false)}
          sx={{ '& .MuiDrawer-paper': { width: OPEN_WIDTH, boxSizing: 'border-box' } }}
        >
          {sidebar}
        </Drawer>
      )}

      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppBar position="sticky" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
          {/* Narrower gaps on a phone: at 360 px the title, the "Reconnecting" chip and the header's buttons must fit in one row. */}
          <Toolbar sx={{ gap: { xs: 0.5, sm: 1.5 } }}>
            <IconButton
              edge="start"
              aria-label="Toggle sidebar"
              aria-expanded={open}
              onClick={() => setOpen((value) => !value)}
            >
              <MenuIcon />
            </IconButton>
            <Typography variant="h6" component="div" noWrap sx={{ flex: 1, minWidth: 0 }}>{headerTitle}</Typography>
            <ConnectionIndicator />
            {headerActions}
            <UserBadge />
          </Toolbar>
        </AppBar>
        <Box component="main" id={MAIN_ID} tabIndex={-1} sx={{ flex: 1, p: { xs: 2, sm: 3, lg: 4 }, '&:focus': { outline: 'none' } }}>
          {children}
        </Box>
      </Box>
    </Box>
  );
}
