import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveSocket } from '../../realtime/socket';
import { DRIVER_GEOLOCATION, driverLinkClosed, pageStorage, postPosition } from './driverApi';
import { createDriverStream } from './driverStream';
import { createPositionQueue } from './positionQueue';
import { useQueueReplay } from './useQueueReplay';

/** A value read outside render (by the stream as it sends), set from an effect. */
export function latest<T>(initial: T) {
  let value = initial;
  return { get: () => value, set: (next: T) => void (value = next) };
}

/** The driver stream (driverStream.ts) wired to the page: its socket, storage, geolocation and the tracking link. */
export function useDriverStream(opts: { ambulanceId: string; token: string; caseId: string; socket: LiveSocket | null; linkClosed: boolean }) {
  const { ambulanceId, token, caseId, socket, linkClosed } = opts;
  const qc = useQueryClient();
  const { stream, setSocket } = useMemo(() => {
    const storage = pageStorage();
    const socketNow = latest<LiveSocket | null>(null);
    const driverStream = createDriverStream({
      queue: createPositionQueue({ key: `lifeline.driverQueue.${ambulanceId}.${caseId}`, storage }),
      storage,
      sharingKey: `lifeline.driverSharing.${ambulanceId}.${caseId}`,
      geolocation: typeof navigator !== 'undefined' ? navigator.geolocation : undefined,
      geolocationOptions: DRIVER_GEOLOCATION,
      socket: socketNow.get,
      viaRest: (fix) => postPosition(ambulanceId, token, fix),
      linkClosed: () => driverLinkClosed(qc, ambulanceId, token),
    });
    return { stream: driverStream, setSocket: socketNow.set };
  }, [ambulanceId, caseId, token, qc]);
  // The page's socket changes as it reconnects: the stream reads the current one when it sends.
  useEffect(() => setSocket(socket), [setSocket, socket]);
  const state = useSyncExternalStore(stream.subscribe, stream.getState, stream.getState);

  // The tracking link says the case is over (socket dropped and the link now answers 404); replay what waits.
  useQueueReplay(stream, socket, linkClosed, () => stream.getState().pending > 0);

  // Sharing was on before a reload and the permission is still granted: carry on (once per stream).
  useEffect(() => stream.resume(typeof navigator !== 'undefined' ? navigator.permissions : undefined), [stream]);

  useEffect(() => () => stream.pause(), [stream]);

  const { phase, lastFix, lastSent, pending, problem, noFix } = state;
  return { phase, lastFix, lastSent, pending, problem, noFix, start: stream.start, stop: stream.stop };
}
