import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { trackedAmbulance } from '../../api/queries';
import type { LiveSocket } from '../../realtime/socket';
import { linkGone } from '../public/useTrackedPosition';
import { DRIVER_GEOLOCATION, pageStorage, postPosition } from './driverApi';
import { createFixSender, toDriverFix } from './fixSender';
import { type DriverFix, createPositionQueue } from './positionQueue';

export type StreamPhase =
  | { kind: 'idle' }
  | { kind: 'locating' }
  | { kind: 'sharing' }
  | { kind: 'closed' }
  | { kind: 'error'; message: string; hint?: string };

export interface LastSent { at: number; via: 'socket' | 'rest'; fix: DriverFix }

/** How long an ack may take before the REST fallback is tried. */
const ACK_MS = 8000;
/** A send that could not go (offline, server busy) is tried again after this, or sooner on reconnect/online. */
const RETRY_MS = 5000;

const NOT_SUPPORTED = 'Geolocation is not supported by your browser';
const DENIED = 'Location access is blocked for this page.';
const DENIED_HINT = 'Allow location for this site in your browser settings, then press Start sharing location again.';
const NO_FIX = 'Could not get your location. Check that location (GPS) is on, then try again.';

const sharingFlag = (ambulanceId: string, caseId: string) => `lifeline.driverSharing.${ambulanceId}.${caseId}`;

/**
 * The driver's side of the link: asks for the device's location once, then streams every fix
 * through the ordered queue (socket with ack, REST when the socket is down, kept while
 * offline and replayed when back). Stops for good when the case closes.
 */
export function useDriverStream(opts: { ambulanceId: string; token: string; caseId: string; socket: LiveSocket | null; linkClosed: boolean }) {
  const { ambulanceId, token, caseId, socket, linkClosed } = opts;
  const qc = useQueryClient();
  const [phase, setPhase] = useState<StreamPhase>({ kind: 'idle' });
  const [lastFix, setLastFix] = useState<DriverFix | null>(null);
  const [lastSent, setLastSent] = useState<LastSent | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [noFix, setNoFix] = useState(false);

  const storage = useMemo(pageStorage, []);
  const queue = useMemo(
    () => createPositionQueue({ key: `lifeline.driverQueue.${ambulanceId}.${caseId}`, storage }),
    [ambulanceId, caseId, storage],
  );
  const [pending, setPending] = useState(() => queue.size);

  const socketRef = useRef(socket);
  socketRef.current = socket;
  const watchId = useRef<number | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastTimestamp = useRef(-Infinity);
  const closed = useRef(false);

  const stopWatching = useCallback(() => {
    if (watchId.current != null) navigator.geolocation?.clearWatch(watchId.current);
    watchId.current = null;
  }, []);

  const closeDown = useCallback(() => {
    if (closed.current) return;
    closed.current = true;
    stopWatching();
    if (retryTimer.current) clearTimeout(retryTimer.current);
    queue.clear();
    setPending(0);
    try {
      storage?.removeItem(sharingFlag(ambulanceId, caseId));
    } catch { /* storage blocked */ }
    setPhase({ kind: 'closed' });
  }, [ambulanceId, caseId, queue, stopWatching, storage]);

  const send = useMemo(() => createFixSender({
    viaSocket: (fix) => {
      const s = socketRef.current;
      return s?.connected ? s.timeout(ACK_MS).emitWithAck('ambulance.position', fix) : null;
    },
    viaRest: (fix) => postPosition(ambulanceId, token, fix),
    linkClosed: async () => {
      try {
        await qc.fetchQuery({ ...trackedAmbulance(ambulanceId, token), staleTime: 0 });
        return false;
      } catch (error) {
        return linkGone(error);
      }
    },
    onSent: (fix, via) => {
      setLastSent({ at: Date.now(), via, fix });
      setProblem(null);
    },
    onClosed: closeDown,
    onProblem: setProblem,
  }), [ambulanceId, token, qc, closeDown]);

  const flush = useCallback(() => {
    if (closed.current) return;
    if (retryTimer.current) {
      clearTimeout(retryTimer.current);
      retryTimer.current = null;
    }
    setPending(queue.size);
    void queue.flush(send).then((result) => {
      setPending(queue.size);
      if (result.halted === 'retry' && queue.size && !closed.current) {
        retryTimer.current ??= setTimeout(() => {
          retryTimer.current = null;
          flush();
        }, RETRY_MS);
      }
    });
  }, [queue, send]);

  const onPosition = useCallback((position: GeolocationPosition) => {
    if (closed.current) return;
    const fix = toDriverFix(position);
    const at = fix.timestamp ?? Date.now();
    if (at <= lastTimestamp.current) return; // the same fix again (watch's first answer)
    lastTimestamp.current = at;
    setNoFix(false);
    setLastFix(fix);
    queue.push(fix);
    flush();
  }, [queue, flush]);

  const onWatchError = useCallback((error: GeolocationPositionError) => {
    if (error.code === error.PERMISSION_DENIED) {
      stopWatching();
      setPhase({ kind: 'error', message: DENIED, hint: DENIED_HINT });
    } else {
      setNoFix(true); // no fix in time: the watch keeps trying
    }
  }, [stopWatching]);

  const start = useCallback(() => {
    if (closed.current) return;
    const geo = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
    if (!geo) {
      setPhase({ kind: 'error', message: NOT_SUPPORTED });
      return;
    }
    setPhase({ kind: 'locating' });
    setProblem(null);
    setNoFix(false);
    // Asked once (the permission prompt); then a watch streams every new fix.
    geo.getCurrentPosition((position) => {
      if (closed.current) return;
      onPosition(position);
      stopWatching();
      watchId.current = geo.watchPosition(onPosition, onWatchError, DRIVER_GEOLOCATION);
      setPhase({ kind: 'sharing' });
      try {
        storage?.setItem(sharingFlag(ambulanceId, caseId), '1');
      } catch { /* storage blocked: no resume after a reload */ }
    }, (error) => {
      const denied = error.code === error.PERMISSION_DENIED;
      setPhase({ kind: 'error', message: denied ? DENIED : NO_FIX, hint: denied ? DENIED_HINT : undefined });
    }, DRIVER_GEOLOCATION);
  }, [ambulanceId, caseId, onPosition, onWatchError, stopWatching, storage]);

  const stop = useCallback(() => {
    stopWatching();
    try {
      storage?.removeItem(sharingFlag(ambulanceId, caseId));
    } catch { /* storage blocked */ }
    setPhase((p) => (p.kind === 'closed' ? p : { kind: 'idle' }));
  }, [ambulanceId, caseId, stopWatching, storage]);

  // The tracking link says the case is over (socket dropped and the link now answers 404).
  useEffect(() => {
    if (linkClosed) closeDown();
  }, [linkClosed, closeDown]);

  // Replay what is waiting: at once (a reload while offline), when the socket (re)connects, when the browser is back online.
  useEffect(() => {
    if (queue.size) flush();
    const onOnline = () => flush();
    window.addEventListener('online', onOnline);
    socket?.on('connect', onOnline);
    return () => {
      window.removeEventListener('online', onOnline);
      socket?.off('connect', onOnline);
    };
  }, [queue, flush, socket]);

  // Sharing was on before a reload and the permission is still granted: carry on.
  useEffect(() => {
    let wanted = false;
    try {
      wanted = storage?.getItem(sharingFlag(ambulanceId, caseId)) === '1';
    } catch { /* storage blocked */ }
    if (!wanted || !navigator.permissions?.query) return;
    let cancelled = false;
    navigator.permissions.query({ name: 'geolocation' }).then((status) => {
      if (!cancelled && status.state === 'granted') start();
    }).catch(() => {});
    return () => {
      cancelled = true;
    };
    // Once per page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Leaving the page ends the watch and the timers (the queue stays in storage).
  useEffect(() => () => {
    stopWatching();
    if (retryTimer.current) clearTimeout(retryTimer.current);
  }, [stopWatching]);

  return { phase, lastFix, lastSent, pending, problem, noFix, start, stop };
}
