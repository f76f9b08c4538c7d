import { useMemo } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { ThemeProvider } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { queries } from '../../api/queries';
import { useSession } from '../../auth/useSession';
import { AppShell } from '../../layout/AppShell';
import { FullPageLoading } from '../../layout/FullPageMessage';
import { DarkModeIcon, LightModeIcon } from '../../layout/icons';
import { createAppTheme } from '../../layout/theme';
import { AlertControls } from '../alerts/AlertControls';
import { CallAlerts } from '../alerts/CallAlerts';
import { operatorBottomNav, operatorNav } from './operatorNav';
import { useDarkMode } from './useDarkMode';

/** /dashboard: the operator's shell. Shows Loading until the profile has loaded. */
export function OperatorShell() {
  const session = useSession();
  const { dark, toggle } = useDarkMode();
  const theme = useMemo(() => createAppTheme(dark ? 'dark' : 'light'), [dark]);
  const profile = useQuery({ ...queries.profile(), enabled: Boolean(session) });
  const userId = profile.data?.user.id;

  const darkToggle = (
    <Tooltip title={dark ? 'Switch to light mode' : 'Switch to dark mode'}>
      <IconButton aria-label="Toggle dark mode" aria-pressed={dark} onClick={toggle}>
        {dark ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {profile.isPending ? (
        <FullPageLoading text="Loading" />
      ) : (
        <AppShell
          sidebarTitle="Lifeline"
          sidebarSubtitle="Dispatch Console"
          headerTitle="Emergency Response Center"
          nav={operatorNav}
          bottomNav={operatorBottomNav}
          headerActions={(
            <>
              {darkToggle}
              {userId != null && <AlertControls userId={userId} />}
            </>
          )}
        >
          {userId != null && <CallAlerts userId={userId} />}
          <Outlet />
        </AppShell>
      )}
    </ThemeProvider>
  );
}
