import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveSocket } from '../../realtime/socket';
import { driverLinkClosed, pageStorage, postUnitStatus } from './driverApi';
import { createPressStream, pressQueue } from './pressStream';
import { latest } from './useDriverStream';
import { useQueueReplay } from './useQueueReplay';

/**
 * The crew's step presses (pressStream.ts) wired to the page: its socket, storage and the tracking
 * link. A step set on the board reaches the page as the socket's `track.case` (useTrackedPosition).
 */
export function useUnitPresses(opts: { ambulanceId: string; token: string; caseId: string; socket: LiveSocket | null; linkClosed: boolean }) {
  const { ambulanceId, token, caseId, socket, linkClosed } = opts;
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

  useEffect(() => () => stream.pause(), [stream]);

  return { ...state, press: stream.press };
}
