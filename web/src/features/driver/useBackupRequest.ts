import { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { LiveSocket } from '../../realtime/socket';
import { BACKUP_IDLE, backupStep } from './callUnits';
import { sendBackup } from './backupSender';
import { postBackup } from './driverApi';
import { latest } from './useDriverStream';

/** The crew's request for backup (backupSender.ts) wired to the page's socket and link. */
export function useBackupRequest(opts: { ambulanceId: string; token: string; socket: LiveSocket | null }) {
  const { ambulanceId, token, socket } = opts;
  const [state, dispatch] = useReducer(backupStep, BACKUP_IDLE);
  // The socket changes as the page reconnects: a request reads the current one when it goes.
  const current = useMemo(() => latest<LiveSocket | null>(null), []);
  useEffect(() => current.set(socket), [current, socket]);

  const send = useCallback((note: string) => {
    if (state.phase !== 'confirming') return;
    dispatch({ type: 'send' });
    void sendBackup({ socket: current.get, viaRest: (input) => postBackup(ambulanceId, token, input) }, note)
      .then((ack) => dispatch({ type: 'answered', ack }));
  }, [state.phase, current, ambulanceId, token]);

  return {
    state,
    open: useCallback(() => dispatch({ type: 'open' }), []),
    cancel: useCallback(() => dispatch({ type: 'cancel' }), []),
    send,
  };
}
