import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { applyStaffEvents } from './cachePatches';
import { type ConnectionState, openSocket, watchConnection } from './socket';

const LiveContext = createContext<ConnectionState>('connecting');

/**
 * One socket per signed-in tab. Events patch the query cache; on every reconnect the
 * cache is refetched so nothing missed while offline stays missing.
 */
export function LiveProvider({ token, children }: { token: string; children: ReactNode }) {
  const qc = useQueryClient();
  const [state, setState] = useState<ConnectionState>('connecting');

  useEffect(() => {
    const socket = openSocket({ token });
    let connectedBefore = false;
    const stopWatching = watchConnection(socket, (s) => {
      setState(s);
      if (s === 'live') {
        if (connectedBefore) void qc.invalidateQueries();
        connectedBefore = true;
      }
    });
    const stopPatching = applyStaffEvents(socket, qc);
    return () => {
      stopPatching();
      stopWatching();
      socket.disconnect();
    };
  }, [token, qc]);

  return <LiveContext.Provider value={state}>{children}</LiveContext.Provider>;
}

export const useConnectionState = () => useContext(LiveContext);

/**
 * The spec's polling interval while the socket is down, none while it is live: the
 * `refetchInterval` of a screen's queries.
 */
export function usePollingFallback(intervalMs: number): number | false {
  return useConnectionState() === 'live' ? false : intervalMs;
}
