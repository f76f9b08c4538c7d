import { useEffect } from 'react';
import { Outlet, useNavigate } from '@tanstack/react-router';
import { LiveProvider } from '../realtime/LiveProvider';
import { useSession } from './useSession';

/**
 * Body of the guarded pathless layouts: when the session ends while a staff page is open
 * (sign-out, or a 401 from the server) the user goes to /signin. Inside, screens share the
 * tab's live socket.
 */
export function SessionGate() {
  const session = useSession();
  const navigate = useNavigate();

  useEffect(() => {
    if (!session) void navigate({ to: '/signin', replace: true });
  }, [session, navigate]);

  // One live socket per signed-in tab, shared by every staff screen below.
  return session ? (
    <LiveProvider token={session.token}>
      <Outlet />
    </LiveProvider>
  ) : null;
}
