/** The question asked before, naming whom it signs out and what that means for them. */
export const signOutQuestion = (name: string) =>
  `Sign ${name} out everywhere? Every device where ${name} is signed in must sign in again.`;

/** The success toast, naming how many sessions ended. */
export function signedOutText(name: string, revoked: number): string {
  if (revoked === 0) return `${name} was not signed in anywhere`;
  return `Signed ${name} out everywhere: ${revoked} ${revoked === 1 ? 'session' : 'sessions'} ended`;
}
