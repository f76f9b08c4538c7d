import { useEffect } from 'react';
import type { LiveSocket } from '../../realtime/socket';

/** What the driver page's two queues (positions, unit steps) share: they send what waits, and stop for good. */
export interface ReplayingStream {
  flush(): unknown;
  close(): void;
}

/**
 * One queue's life on the driver page: closed once the link says the case is over; what waits
 * is replayed at once (a reload while offline), when the socket (re)connects and when the
 * browser is back online.
 */
export function useQueueReplay(stream: ReplayingStream, socket: LiveSocket | null, linkClosed: boolean, waiting: () => boolean) {
  useEffect(() => {
    if (linkClosed) stream.close();
  }, [linkClosed, stream]);

  useEffect(() => {
    if (waiting()) void stream.flush();
    const onOnline = () => void stream.flush();
    window.addEventListener('online', onOnline);
    socket?.on('connect', onOnline);
    return () => {
      window.removeEventListener('online', onOnline);
      socket?.off('connect', onOnline);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `waiting` is read once per stream and socket: a new closure each render must not replay again
  }, [stream, socket]);
}
