import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useNavigate } from '@tanstack/react-router';
import { queries } from '../../api/queries';
import { clearSession } from '../../auth/session';
import { useSession } from '../../auth/useSession';
import { AppShell } from '../../layout/AppShell';
import { FullPageLoading } from '../../layout/FullPageMessage';
import { ToastPlacementProvider } from '../../layout/toast';
import { AlertControls } from '../alerts/AlertControls';
import { CallAlerts } from '../alerts/CallAlerts';
import { adminBottomNav, adminNav } from './adminNav';

const BOTTOM_RIGHT = { vertical: 'bottom', horizontal: 'right' } as const;

/**
 * /admin-dashboard: the admin portal. The route guard has checked the stored session; the
 * shell shows Loading... until the server confirms the profile is an admin's. A profile
 * with another role ends the session (SPEC §4). Dark mode stays off here.
 */
export function AdminShell() {
  const session = useSession();
  const navigate = useNavigate();
  const profile = useQuery({ ...queries.profile(), enabled: Boolean(session) });
  const notAdmin = profile.data !== undefined && profile.data.user.role !== 'admin';

  useEffect(() => {
    if (!notAdmin) return;
    clearSession();
    void navigate({ to: '/signin', replace: true });
  }, [notAdmin, navigate]);

  if (profile.isPending || notAdmin) return <FullPageLoading text="Loading..." />;
  const userId = profile.data?.user.id;

  return (
    <ToastPlacementProvider origin={BOTTOM_RIGHT}>
      <AppShell
        sidebarTitle="Admin Portal"
        sidebarSubtitle="Lifeline Dispatch"
        headerTitle="Administration"
        nav={adminNav}
        bottomNav={adminBottomNav}
        defaultOpen
        headerActions={userId != null && <AlertControls userId={userId} />}
      >
        {userId != null && <CallAlerts userId={userId} />}
        <Outlet />
      </AppShell>
    </ToastPlacementProvider>
  );
}
