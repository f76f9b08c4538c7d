import { apiFetch } from '../../../api/client';
import type { SignOutEverywhereResponse, UserDto } from '../../../api/contract';

/** Ends every live session of a staff member; their open screens must sign in again. */
export const signOutEverywhere = (u: Pick<UserDto, 'id'>) =>
  apiFetch<SignOutEverywhereResponse>(`/api/users/${u.id}/signout`, { method: 'POST' });

/** The question asked before, naming whom it signs out and what that means for them. */
export const signOutQuestion = (name: string) =>
  `Sign ${name} out everywhere? Every device where ${name} is signed in must sign in again.`;

/** The success toast, naming how many sessions ended. */
export function signedOutText(name: string, revoked: number): string {
  if (revoked === 0) return `${name} was not signed in anywhere`;
  return `Signed ${name} out everywhere: ${revoked} ${revoked === 1 ? 'session' : 'sessions'} ended`;
}
