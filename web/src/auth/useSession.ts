import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession } from './session';

/** The current session; re-renders when sign-in, sign-out or a 401 changes it. */
export function useSession() {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
