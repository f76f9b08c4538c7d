import { useEffect, useState } from 'react';

export type WakeLockState = 'on' | 'off' | 'unsupported';

const supported = () => typeof navigator !== 'undefined' && 'wakeLock' in navigator && typeof navigator.wakeLock?.request === 'function';

/**
 * Keeps the screen on while `active`, where the browser allows it. The browser drops the
 * lock whenever the page is hidden; it is asked for again when the page is visible again.
 */
export function useWakeLock(active: boolean): WakeLockState {
  const [held, setHeld] = useState(false);
  const canLock = supported();

  useEffect(() => {
    if (!active || !canLock) return;
    let sentinel: WakeLockSentinel | null = null;
    let asking = false;
    let done = false;

    const acquire = async () => {
      if (done || asking || document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      asking = true;
      try {
        const lock = await navigator.wakeLock.request('screen');
        if (done) {
          void lock.release();
          return;
        }
        sentinel = lock;
        setHeld(true);
        lock.addEventListener('release', () => {
          if (sentinel === lock) setHeld(false);
        });
      } catch {
        setHeld(false); // refused (battery saver, not allowed here): the screen may dim
      } finally {
        asking = false;
      }
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void acquire();
    };

    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      done = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel && !sentinel.released) void sentinel.release().catch(() => {});
      sentinel = null;
      setHeld(false);
    };
  }, [active, canLock]);

  if (!canLock) return 'unsupported';
  return held ? 'on' : 'off';
}
