import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { connectLiveCache } from './liveCache';
import { type ConnectionState, openSocket } from './socket';

const LiveContext = createContext<ConnectionState>('connecting');
const FIRST_CONNECT_GRACE_MS = 5000;

/**
 * One socket per signed-in tab, wired to the query cache by `connectLiveCache`: events patch
 * the cache (newer versions only) and every connect refetches it, so nothing missed while
 * offline stays missing and no late answer overwrites a newer row.
 */
export function LiveProvider({ token, children }: { token: string; children: ReactNode }) {
  const qc = useQueryClient();
  const [state, setState] = useState<ConnectionState>('connecting');

  useEffect(() => {
    const socket = openSocket({ token });
    const disconnect = connectLiveCache(socket, qc, setState);
    // A first connection that has not come up in a few seconds is as down as a lost one (a proxy
    // that drops WebSockets may never report an error): the screens then say their data may be old.
    const firstConnect = setTimeout(() => setState((s) => (s === 'connecting' ? 'reconnecting' : s)), FIRST_CONNECT_GRACE_MS);
    return () => {
      clearTimeout(firstConnect);
      disconnect();
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
