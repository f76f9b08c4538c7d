import { useState } from 'react';

/**
 * The closing rule of a dialog that shows a secret once (a device identity, a hospital's page link):
 * while it is being made nothing closes it; once shown, a click beside it does nothing, and a close
 * before the secret was copied asks first (`leaving`); Done (`onClose` itself) always closes.
 */
export function useShowOnceClose({ pending, shown, onClose }: { pending: boolean; shown: boolean; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const requestClose = (_e: unknown, reason?: string) => {
    if (pending || (shown && reason === 'backdropClick')) return;
    if (shown && !copied) {
      setLeaving(true);
      return;
    }
    onClose();
  };
  return { copied, setCopied, leaving, setLeaving, requestClose };
}
