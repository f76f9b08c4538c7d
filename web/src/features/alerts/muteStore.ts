/**
 * A per-user mute of the alert sounds and desktop notifications, kept in localStorage under the
 * user's id (two people sharing a console keep their own choice), shared by every component
 * through a tiny external store.
 */
export const muteKey = (userId: number) => `lifeline.alerts.muted.${userId}`;

const listeners = new Set<() => void>();

export function isMuted(userId: number, storage: Storage = localStorage): boolean {
  try {
    return storage.getItem(muteKey(userId)) === '1';
  } catch {
    return false;
  }
}

export function setMuted(userId: number, muted: boolean, storage: Storage = localStorage): void {
  try {
    if (muted) storage.setItem(muteKey(userId), '1');
    else storage.removeItem(muteKey(userId));
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page only.
  }
  for (const l of listeners) l();
}

/** For useSyncExternalStore; another tab's change arrives as a `storage` event. */
export function subscribeMute(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}
