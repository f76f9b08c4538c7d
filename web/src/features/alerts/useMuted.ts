import { useCallback, useSyncExternalStore } from 'react';
import { isMuted, setMuted, subscribeMute } from './muteStore';

/** The signed-in user's alert mute and its toggle; every component using it agrees. */
export function useMuted(userId: number): { muted: boolean; toggle: () => void } {
  const read = useCallback(() => isMuted(userId), [userId]);
  const muted = useSyncExternalStore(subscribeMute, read, read);
  const toggle = useCallback(() => setMuted(userId, !isMuted(userId)), [userId]);
  return { muted, toggle };
}
