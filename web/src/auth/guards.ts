import { redirect } from '@tanstack/react-router';
import type { Role } from '../api/contract';
import type { Auth } from './session';

/** Where each role's staff member starts. */
export const homeOf = (role: Role) => (role === 'admin' ? '/admin-dashboard' : '/dashboard');

/**
 * Client-side gate for a pathless layout: without a session the user goes to /signin. A
 * signed-in staff member of another role passes here and is told by the layout (RoleGate)
 * that the page is not theirs, keeping the session. The server enforces the roles.
 */
export function requireSignedIn(auth: Auth) {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- TanStack Router's beforeLoad redirects by throwing its redirect object
  if (!auth.getSession()) throw redirect({ to: '/signin', replace: true });
}
