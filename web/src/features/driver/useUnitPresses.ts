import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { trackedAmbulance } from '../../api/queries';
import type { LiveSocket } from '../../realtime/socket';
import { driverLinkClosed, pageStorage, postUnitStatus } from './driverApi';
import { createPressStream, pressQueue } from './pressStream';
import { latest } from './useDriverStream';
import { useQueueReplay } from './useQueueReplay';

/** The tracking link is read again this often while the socket is live: a dispatcher may move the unit from the board. */
const REREAD_MS = 20_000;

/** The crew's step presses (pressStream.ts) wired to the page: its socket, storage and the tracking link. */
export function useUnitPresses(opts: { ambulanceId: string; token: string; caseId: string; socket: LiveSocket | null; linkClosed: boolean; live: boolean }) {
  const { ambulanceId, token, caseId, socket, linkClosed, live } = opts;
  const qc = useQueryClient();
  const { stream, setSocket } = useMemo(() => {
    const current = latest<LiveSocket | null>(null);
    const pressStream = createPressStream({
      queue: pressQueue(`lifeline.driverPresses.${ambulanceId}.${caseId}`, pageStorage()),
      socket: current.get,
      viaRest: (press) => postUnitStatus(ambulanceId, token, press),
      linkClosed: () => driverLinkClosed(qc, ambulanceId, token),
    });
    return { stream: pressStream, setSocket: current.set };
  }, [ambulanceId, caseId, token, qc]);
  useEffect(() => setSocket(socket), [setSocket, socket]);
  const state = useSyncExternalStore(stream.subscribe, stream.getState, stream.getState);

  useQueueReplay(stream, socket, linkClosed, () => stream.getState().waiting.length > 0);

  // The driver's socket hears no case events: while it is live the link is read now and then (polling covers the rest).
  useEffect(() => {
    if (!live || linkClosed) return;
    const timer = setInterval(() => void qc.invalidateQueries({ queryKey: trackedAmbulance(ambulanceId, token).queryKey }), REREAD_MS);
    return () => clearInterval(timer);
  }, [live, linkClosed, qc, ambulanceId, token]);

  useEffect(() => () => stream.pause(), [stream]);

  return { ...state, press: stream.press };
}
