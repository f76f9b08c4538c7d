import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { LatLon } from '../../api/contract';
import { GEOLOCATION_OPTIONS, type LocationLink, type SavedLocation, type SentFix, saveLocation, sendLocation, shouldSend } from './locationShare';

export interface LiveFix extends LatLon { accuracy: number | null }

export interface LiveState {
  watching: boolean;
  /** Accuracy of the latest fix from the device, in metres. */
  accuracy: number | null;
  /** The server's time of the last update it took. */
  lastUpdate: string | null;
  problem: string | null;
}

/** After a failed send (network), the next try waits this long. */
const RETRY_MS = 5000;
const TICK_MS = 1000;

const fixOf = (p: GeolocationPosition): LiveFix => ({
  latitude: p.coords.latitude,
  longitude: p.coords.longitude,
  accuracy: Number.isFinite(p.coords.accuracy) ? p.coords.accuracy : null,
});

/**
 * Continuous sharing for the patient's page: once started it watches the device's position
 * and sends a fix when the patient moved more than 10 m or 15 s passed, one request at a
 * time. The server's 410 (case closed) or 404 ends it; a network failure is retried.
 */
export function useLiveSharing({ caseId, token }: LocationLink, on: { closed: (serverText: string | undefined) => void; saved: (saved: SavedLocation) => void }) {
  const [live, setLive] = useState<LiveState>({ watching: false, accuracy: null, lastUpdate: null, problem: null });
  const watchId = useRef<number | null>(null);
  const ticker = useRef<ReturnType<typeof setInterval> | null>(null);
  const latest = useRef<LiveFix | null>(null);
  const lastSent = useRef<SentFix | null>(null);
  const inFlight = useRef(false);
  const retryAt = useRef(0);
  const stopped = useRef(true);
  const handlers = useRef(on);
  useEffect(() => {
    handlers.current = on;
  }, [on]);

  const stop = useCallback(() => {
    stopped.current = true;
    if (watchId.current != null) navigator.geolocation?.clearWatch(watchId.current);
    if (ticker.current) clearInterval(ticker.current);
    watchId.current = null;
    ticker.current = null;
    setLive((s) => (s.watching ? { ...s, watching: false } : s));
  }, []);

  const tick = useCallback(() => {
    const fix = latest.current;
    const now = Date.now();
    if (stopped.current || !fix || inFlight.current || now < retryAt.current || !shouldSend(lastSent.current, fix, now)) return;
    inFlight.current = true;
    sendLocation({ caseId, token }, { latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy ?? NaN })
      .then((answer) => {
        lastSent.current = { latitude: fix.latitude, longitude: fix.longitude, at: Date.now() };
        const saved = saveLocation(caseId, fix.latitude, fix.longitude);
        if (stopped.current) return;
        setLive((s) => ({ ...s, lastUpdate: answer.updated_at, problem: null }));
        handlers.current.saved(saved);
      }, (error: unknown) => {
        if (error instanceof ApiError && (error.status === 410 || error.status === 404)) {
          stop();
          handlers.current.closed(error.serverError);
          return;
        }
        retryAt.current = Date.now() + RETRY_MS;
        if (!stopped.current) setLive((s) => ({ ...s, problem: 'Could not send your latest location. Retrying…' }));
      })
      .finally(() => {
        inFlight.current = false;
      });
  }, [caseId, token, stop]);

  /** Starts watching; `sent` is the fix just shared (null: the first fix is sent at once). */
  const start = useCallback((sent: { fix: LiveFix; updatedAt: string } | null) => {
    if (!navigator.geolocation) return;
    stop();
    stopped.current = false;
    latest.current = sent?.fix ?? null;
    lastSent.current = sent ? { latitude: sent.fix.latitude, longitude: sent.fix.longitude, at: Date.now() } : null;
    retryAt.current = 0;
    setLive({ watching: true, accuracy: sent?.fix.accuracy ?? null, lastUpdate: sent?.updatedAt ?? null, problem: null });
    watchId.current = navigator.geolocation.watchPosition((position) => {
      if (stopped.current) return;
      const fix = fixOf(position);
      latest.current = fix;
      setLive((s) => (s.accuracy === fix.accuracy ? s : { ...s, accuracy: fix.accuracy }));
      tick();
    }, (error) => {
      if (error.code !== error.PERMISSION_DENIED) return; // no fix this time: the watch keeps trying
      stop();
      setLive((s) => ({ ...s, problem: 'Location access was turned off, so updates have stopped. Allow it and press Share My Location again.' }));
    }, GEOLOCATION_OPTIONS);
    ticker.current = setInterval(tick, TICK_MS);
  }, [stop, tick]);

  useEffect(() => stop, [stop]);

  return { live, start, stop };
}
