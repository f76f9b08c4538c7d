import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import type { ReactNode } from 'react';
import { useSession } from '../../auth/useSession';
import { Logo } from '../../layout/Logo';
import { ButtonLink } from '../../layout/links';

/** The stand-alone staff page's frame (/ambulance-map): the logo and the way back to the signed-in shell. */
export function StandaloneMapFrame({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
      <AppBar position="static" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Toolbar sx={{ gap: 2, justifyContent: 'space-between' }}>
          <Logo size={32} />
          <BackToShell />
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ p: { xs: 2, sm: 3 } }}>{children}</Box>
    </Box>
  );
}

function BackToShell() {
  const session = useSession();
  if (!session) return null;
  return session.role === 'admin'
    ? <ButtonLink to="/admin-dashboard" variant="text">Admin Portal</ButtonLink>
    : <ButtonLink to="/dashboard" variant="text">Dashboard</ButtonLink>;
}
