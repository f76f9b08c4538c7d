import { redirect } from '@tanstack/react-router';
import type { Role } from '../api/contract';
import type { Auth } from './session';

/**
 * Client-side gate for a pathless layout: only a signed-in staff member whose role is
 * among `roles` passes; anyone else goes to /signin. The server enforces the same rules.
 * `clearOnWrongRole` follows SPEC §4 for the admin portal: a wrong role clears the session.
 */
export function requireRole(auth: Auth, roles: readonly Role[], clearOnWrongRole = false) {
  const session = auth.getSession();
  if (session && roles.includes(session.role)) return;
  if (session && clearOnWrongRole) auth.clearSession();
  throw redirect({ to: '/signin', replace: true });
}
