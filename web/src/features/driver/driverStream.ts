import type { PositionAck } from '../../api/contract';
import { createFixSender, toDriverFix } from './fixSender';
import type { DriverFix, PositionQueue } from './positionQueue';

export type StreamPhase =
  | { kind: 'idle' }
  | { kind: 'locating' }
  | { kind: 'sharing' }
  | { kind: 'closed' }
  | { kind: 'error'; message: string; hint?: string };

export interface LastSent { at: number; via: 'socket' | 'rest'; fix: DriverFix }

/** What the driver's page shows about the stream. */
export interface DriverStreamState {
  phase: StreamPhase;
  /** The latest fix from the device. */
  lastFix: DriverFix | null;
  /** The latest fix the server took, when and how. */
  lastSent: LastSent | null;
  /** Fixes waiting in the queue. */
  pending: number;
  /** A refusal worth showing (an invalid position, an unexpected answer). */
  problem: string | null;
  /** The watch found no fix in time; it keeps trying. */
  noFix: boolean;
  /** The newest fix time taken: the watch's first answer repeats the first fix. */
  lastFixAt: number;
}

export type DriverStreamEvent =
  | { type: 'unsupported' }
  | { type: 'locating' }
  | { type: 'sharing' }
  | { type: 'locateFailed'; denied: boolean }
  | { type: 'watchFailed'; denied: boolean }
  | { type: 'fix'; fix: DriverFix; at: number }
  | { type: 'sent'; sent: LastSent }
  | { type: 'problem'; text: string }
  | { type: 'queued'; pending: number }
  | { type: 'stopped' }
  | { type: 'closed' };

const NOT_SUPPORTED = 'Geolocation is not supported by your browser';
const DENIED = 'Location access is blocked for this page.';
const DENIED_HINT = 'Allow location for this site in your browser settings, then press Start sharing location again.';
const NO_FIX = 'Could not get your location. Check that location (GPS) is on, then try again.';

export const initialStreamState = (pending: number): DriverStreamState => ({
  phase: { kind: 'idle' }, lastFix: null, lastSent: null, pending, problem: null, noFix: false, lastFixAt: -Infinity,
});

const denied = (): StreamPhase => ({ kind: 'error', message: DENIED, hint: DENIED_HINT });

/**
 * The stream's transitions. A closed case is final: only the in-flight sends still report.
 * A fix no newer than the last one is ignored (the state is returned unchanged).
 */
export function transition(state: DriverStreamState, event: DriverStreamEvent): DriverStreamState {
  if (state.phase.kind === 'closed' && event.type !== 'sent' && event.type !== 'problem') return state;
  switch (event.type) {
    case 'unsupported': return { ...state, phase: { kind: 'error', message: NOT_SUPPORTED } };
    case 'locating': return { ...state, phase: { kind: 'locating' }, problem: null, noFix: false };
    case 'sharing': return { ...state, phase: { kind: 'sharing' } };
    case 'locateFailed': return { ...state, phase: event.denied ? denied() : { kind: 'error', message: NO_FIX } };
    case 'watchFailed': return event.denied ? { ...state, phase: denied() } : { ...state, noFix: true };
    case 'fix': return event.at <= state.lastFixAt ? state : { ...state, lastFix: event.fix, lastFixAt: event.at, noFix: false };
    case 'sent': return { ...state, lastSent: event.sent, problem: null };
    case 'problem': return { ...state, problem: event.text };
    case 'queued': return event.pending === state.pending ? state : { ...state, pending: event.pending };
    case 'stopped': return { ...state, phase: { kind: 'idle' } };
    case 'closed': return { ...state, phase: { kind: 'closed' }, pending: 0 };
  }
}

/** How long an ack may take before the REST fallback is tried. */
const ACK_MS = 8000;
/** A send that could not go (offline, server busy) is tried again after this, or sooner on reconnect/online. */
const RETRY_MS = 5000;

/** The socket as the stream needs it: connected or not, and an acked emit with a time-out. */
export interface DriverSocket {
  connected: boolean;
  timeout(ms: number): { emitWithAck(event: 'ambulance.position', fix: DriverFix): Promise<PositionAck> };
}

export interface DriverStreamDeps {
  queue: PositionQueue;
  /** Where "sharing was on" is remembered across a reload; null when the browser blocks storage. */
  storage: Storage | null;
  sharingKey: string;
  geolocation: Pick<Geolocation, 'getCurrentPosition' | 'watchPosition' | 'clearWatch'> | undefined;
  geolocationOptions: PositionOptions;
  /** The current driver socket, if any (it changes as the page reconnects). */
  socket: () => DriverSocket | null;
  viaRest: (fix: DriverFix) => Promise<unknown>;
  /** Asks the tracking link whether the case is over. */
  linkClosed: () => Promise<boolean>;
  now?: () => number;
}

function remember(storage: Storage | null, key: string, on: boolean) {
  try {
    if (on) storage?.setItem(key, '1');
    else storage?.removeItem(key);
  } catch { /* storage blocked: no resume after a reload */ }
}

/**
 * The driver's side of the link, without React: asks for the device's location once, then
 * streams every fix through the ordered queue (socket with ack, REST when the socket is down,
 * kept while offline and replayed when back). Stops for good when the case closes.
 */
export function createDriverStream(deps: DriverStreamDeps) {
  const { queue, storage, sharingKey, geolocation: geo } = deps;
  const now = deps.now ?? Date.now;
  let state = initialStreamState(queue.size);
  const listeners = new Set<() => void>();
  let watchId: number | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const closed = () => state.phase.kind === 'closed';
  const dispatch = (event: DriverStreamEvent) => {
    const next = transition(state, event);
    if (next === state) return false;
    state = next;
    for (const l of listeners) l();
    return true;
  };
  const stopWatching = () => {
    if (watchId != null) geo?.clearWatch(watchId);
    watchId = null;
  };
  const clearRetry = () => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  };

  function close() {
    if (closed()) return;
    stopWatching();
    clearRetry();
    queue.clear();
    remember(storage, sharingKey, false);
    dispatch({ type: 'closed' });
  }

  const send = createFixSender({
    viaSocket: (fix) => {
      const s = deps.socket();
      return s?.connected ? s.timeout(ACK_MS).emitWithAck('ambulance.position', fix) : null;
    },
    viaRest: deps.viaRest,
    linkClosed: deps.linkClosed,
    onSent: (fix, via) => dispatch({ type: 'sent', sent: { at: now(), via, fix } }),
    onClosed: close,
    onProblem: (text) => dispatch({ type: 'problem', text }),
  });

  function flush() {
    if (closed()) return;
    clearRetry();
    dispatch({ type: 'queued', pending: queue.size });
    void queue.flush(send).then((result) => {
      dispatch({ type: 'queued', pending: queue.size });
      if (result.halted === 'retry' && queue.size && !closed()) {
        retryTimer ??= setTimeout(() => {
          retryTimer = null;
          flush();
        }, RETRY_MS);
      }
    });
  }

  function onPosition(position: GeolocationPosition) {
    if (closed()) return;
    const fix = toDriverFix(position);
    if (!dispatch({ type: 'fix', fix, at: fix.timestamp ?? now() })) return;
    queue.push(fix);
    flush();
  }

  function onWatchError(error: GeolocationPositionError) {
    const denied = error.code === error.PERMISSION_DENIED;
    if (denied) stopWatching();
    dispatch({ type: 'watchFailed', denied });
  }

  function start() {
    if (closed()) return;
    if (!geo) {
      dispatch({ type: 'unsupported' });
      return;
    }
    dispatch({ type: 'locating' });
    // Asked once (the permission prompt); then a watch streams every new fix.
    geo.getCurrentPosition((position) => {
      if (closed()) return;
      onPosition(position);
      stopWatching();
      watchId = geo.watchPosition(onPosition, onWatchError, deps.geolocationOptions);
      dispatch({ type: 'sharing' });
      remember(storage, sharingKey, true);
    }, (error) => {
      dispatch({ type: 'locateFailed', denied: error.code === error.PERMISSION_DENIED });
    }, deps.geolocationOptions);
  }

  function stop() {
    stopWatching();
    remember(storage, sharingKey, false);
    dispatch({ type: 'stopped' });
  }

  /** Sharing was on before a reload and the permission is still granted: carry on. Answers a cancel. */
  function resume(permissions: Pick<Permissions, 'query'> | undefined): () => void {
    let wanted = false;
    try {
      wanted = storage?.getItem(sharingKey) === '1';
    } catch { /* storage blocked */ }
    if (!wanted || !permissions?.query) return () => {};
    let cancelled = false;
    permissions.query({ name: 'geolocation' }).then((status) => {
      if (!cancelled && status.state === 'granted') start();
    }).catch(() => {});
    return () => {
      cancelled = true;
    };
  }

  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    start,
    stop,
    flush,
    close,
    resume,
    /** Leaving the page ends the watch and the timers (the queue stays in storage). */
    pause() {
      stopWatching();
      clearRetry();
    },
  };
}

export type DriverStream = ReturnType<typeof createDriverStream>;
