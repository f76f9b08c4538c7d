import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { mutations } from '../../api/mutations';
import { clearSession } from '../../auth/session';
import { useToast } from '../../layout/toast';

/**
 * Asks for confirmation, tells the server, then removes userToken and userEmail,
 * confirms with a toast and goes to /signin. A failed server call does not keep anyone signed in.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();

  return async () => {
    if (!window.confirm('Are you sure you want to logout?')) return;
    try {
      await mutations.signOut.request(undefined);
    } catch {
      // The local sign-out below is what matters to the user.
    }
    clearSession(['userToken', 'userEmail']);
    toast('Logged out successfully', 'success');
    await navigate({ to: '/signin', replace: true });
    queryClient.clear();
  };
}
