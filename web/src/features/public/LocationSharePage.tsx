import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { useMiniToast } from './MiniToast';
import { AlertIcon, CheckIcon, ErrorPanel, PinIcon, PublicHeader, StopIcon, formatClock } from './PublicChrome';
import {
  type SavedLocation, checkLink, currentPosition, geolocationSupported, isGeolocationError, isPoorAccuracy, readSavedLocation, saveLocation, sendLocation,
} from './locationShare';
import { useLiveSharing } from './useLiveSharing';
import './public.css';

type Phase =
  | { kind: 'idle' }
  | { kind: 'sharing' }
  | { kind: 'shared'; saved: SavedLocation }
  | { kind: 'closed'; detail?: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'error'; message: string; hint?: string }
  | { kind: 'fatal'; message: string };

const NOT_SUPPORTED = 'Geolocation is not supported by your browser';
const SHARE_FAILED = 'Failed to share location. Please try again.';
const CHECK_FAILED = 'Failed to check location status. Please try again.';
const DENIED_HINT = 'Location access is blocked for this page. Allow it in your browser settings, then try again.';
const CLOSED_TEXT = 'This case is closed. Location sharing has stopped.';
const WAITING_TEXT = 'Help is being arranged: an ambulance will be sent as soon as one is free. Share your location now so the nearest one can be sent to you.';
const INVALID_HINT = 'This link cannot share your location. Open the link from your e-mail again.';
/** How often an open page asks whether its link can still share (the call may have ended meanwhile). */
const RECHECK_MS = 30_000;
/** The element that says why Share is off (the button points at it). */
const DEAD_REASON_ID = 'll-share-off-reason';

/** Idle, or shared when this browser already shared a location for the case; fatal when that copy is unreadable. */
function initialPhase(caseId: string): Phase {
  try {
    const saved = readSavedLocation(caseId);
    return saved ? { kind: 'shared', saved } : { kind: 'idle' };
  } catch {
    return { kind: 'fatal', message: CHECK_FAILED };
  }
}

/** Drops this page's own unreadable copy (it only marks the page as shared) and checks again. */
function retryCheck(caseId: string): Phase {
  try {
    localStorage.removeItem(caseId);
  } catch {
    // Storage is blocked: the check fails again below.
  }
  return initialPhase(caseId);
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * /location/{caseId}?t=TOKEN: the patient shares where they are, then keeps the dispatcher up to date
 * while the page stays open (throttled: a move of more than 10 m, or every 15 s). Plain React
 * and one small CSS file, no MUI and no map, so it opens quickly on a weak phone; the link a
 * patient opens loads it through its own entry (src/location/main.tsx) on Preact's React API,
 * so it uses nothing preact/compat lacks.
 */
export function LocationSharePage({ caseId, token }: { caseId: string; token: string }) {
  const [phase, setPhase] = useState<Phase>(() => initialPhase(caseId));
  // The call still waits for an ambulance (the link shares then too): said so, as the waiting call's mail does.
  const [waiting, setWaiting] = useState(false);
  const toast = useMiniToast();
  const busy = phase.kind === 'sharing';
  const { live, start: startLive, stop: stopLive } = useLiveSharing({ caseId, token }, {
    closed: (detail) => setPhase({ kind: 'closed', detail }),
    saved: (saved) => setPhase((p) => (p.kind === 'shared' ? { kind: 'shared', saved } : p)),
  });

  // Asked at load, so a closed or unknown case says so before anyone presses Share; asked again
  // every RECHECK_MS while the page is shown and when it is shown again (the patient's phone slept),
  // so a page left open when the call ended stops offering Share (a live share learns it from its
  // next send). The button stays usable while an answer is on its way (a slow network must not
  // hold up an emergency), and anything but the server's 404 or 410 leaves it so: a share then tells for itself.
  useEffect(() => {
    const abort = new AbortController();
    const check = () => {
      if (document.visibilityState === 'hidden') return;
      checkLink({ caseId, token }, abort.signal).then((state) => {
        if (!abort.signal.aborted) setWaiting(state.waiting === true);
      }, (error: unknown) => {
        if (abort.signal.aborted || !(error instanceof ApiError) || (error.status !== 410 && error.status !== 404)) return;
        stopLive();
        const dead: Phase = error.status === 410
          ? { kind: 'closed', detail: error.serverError }
          : { kind: 'invalid', message: error.serverError ?? 'Case not found' };
        setPhase((p) => (p.kind === 'fatal' || p.kind === 'closed' || p.kind === 'invalid' ? p : dead));
        clearInterval(timer);
      });
    };
    const timer = setInterval(check, RECHECK_MS);
    check();
    document.addEventListener('visibilitychange', check);
    return () => {
      abort.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [caseId, token, stopLive]);

  // Shared before (this browser) and still allowed to read the location: carry on updating, without a prompt.
  useEffect(() => {
    if (initialPhase(caseId).kind !== 'shared' || !navigator.permissions?.query || !geolocationSupported()) return;
    let cancelled = false;
    navigator.permissions.query({ name: 'geolocation' }).then((status) => {
      if (!cancelled && status.state === 'granted') startLive(null);
    }).catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [caseId, startLive]);

  async function share() {
    if (!geolocationSupported()) {
      toast.show(NOT_SUPPORTED, 'error');
      setPhase({ kind: 'error', message: NOT_SUPPORTED });
      return;
    }
    stopLive();
    setPhase({ kind: 'sharing' });
    try {
      const position = await currentPosition();
      const answer = await sendLocation({ caseId, token }, position.coords);
      const saved = saveLocation(caseId, position.coords.latitude, position.coords.longitude);
      setPhase({ kind: 'shared', saved });
      toast.show('Location shared successfully', 'success');
      const { latitude, longitude, accuracy } = position.coords;
      startLive({ fix: { latitude, longitude, accuracy: Number.isFinite(accuracy) ? accuracy : null }, updatedAt: answer.updated_at });
    } catch (error) {
      toast.show('Failed to share location', 'error');
      if (error instanceof ApiError && error.status === 410) {
        setPhase({ kind: 'closed', detail: error.serverError });
        return;
      }
      const message = error instanceof ApiError && error.serverError ? error.serverError : SHARE_FAILED;
      const hint = isGeolocationError(error) && error.code === error.PERMISSION_DENIED ? DENIED_HINT : undefined;
      setPhase({ kind: 'error', message, hint });
    }
  }

  if (phase.kind === 'fatal') {
    return (
      <div className="ll-page">
        <PublicHeader />
        <main className="ll-main">
          <section className="ll-card ll-card--fatal" role="alert">
            <AlertIcon className="ll-hero-icon ll-hero-icon--error" />
            <h1 className="ll-title">Critical Error</h1>
            <p className="ll-text">{phase.message}</p>
            <button type="button" className="ll-button" onClick={() => setPhase(retryCheck(caseId))}>Try Again</button>
          </section>
        </main>
      </div>
    );
  }

  const watching = phase.kind === 'shared' && live.watching;
  const dead = phase.kind === 'closed' || phase.kind === 'invalid';
  const poor = watching && isPoorAccuracy(live.accuracy);

  return (
    <div className="ll-page">
      <PublicHeader />
      <main className="ll-main">
        <section className="ll-card" aria-labelledby="ll-heading">
          <PinIcon className="ll-hero-icon" />
          <h1 id="ll-heading" className="ll-title">Emergency Location Sharing</h1>
          <p className="ll-text">
            Click the button below to share your current location with emergency services, so the ambulance can find you.
          </p>

          {waiting && !dead && (
            <p className="ll-text" data-testid="location-waiting">{WAITING_TEXT}</p>
          )}

          <button
            type="button"
            className="ll-button"
            onClick={share}
            disabled={busy || dead}
            aria-busy={busy}
            aria-describedby={dead ? DEAD_REASON_ID : undefined}
          >
            {busy ? <span className="ll-spinner" aria-hidden /> : <PinIcon className="ll-button-icon" />}
            {busy ? 'Sharing...' : 'Share My Location'}
          </button>

          {phase.kind === 'shared' && (
            <div className="ll-status ll-status--success" role="status">
              <CheckIcon className="ll-status-icon" />
              <div>
                <p className="ll-status-title">Your location has been shared successfully.</p>
                {phase.saved.updated_at && (
                  <p className="ll-status-detail" data-testid="shared-detail">
                    {watching ? 'Shared location:' : `Shared ${formatTime(phase.saved.updated_at)} ·`} {phase.saved.latitude.toFixed(5)}, {phase.saved.longitude.toFixed(5)}
                  </p>
                )}
              </div>
            </div>
          )}
          {watching && (
            <div className="ll-live" data-testid="live-sharing">
              <p className="ll-live-title"><span className="ll-live-dot" aria-hidden />Updating live while this page is open</p>
              <p className="ll-live-line" data-testid="live-accuracy">
                {live.accuracy != null ? `Accuracy: ±${Math.round(live.accuracy)} m` : 'Accuracy: unknown'}
              </p>
              <p className="ll-live-line" data-testid="live-updated">
                Last update: {live.lastUpdate ? formatClock(live.lastUpdate) : 'waiting for your location'}
              </p>
              {live.problem && <p className="ll-live-line ll-live-problem">{live.problem}</p>}
            </div>
          )}
          {phase.kind === 'shared' && !live.watching && live.problem && (
            <p className="ll-live-problem ll-live-line">{live.problem}</p>
          )}
          {poor && (
            <div className="ll-status ll-status--warning" role="alert" data-testid="accuracy-warning">
              <AlertIcon className="ll-status-icon" />
              <p className="ll-status-title">
                Your location is approximate (±{Math.round(live.accuracy!)} m). Move to an open area if you can.
              </p>
            </div>
          )}
          {phase.kind === 'closed' && (
            <div className="ll-status ll-status--closed" role="status" data-testid="location-closed" id={DEAD_REASON_ID}>
              <StopIcon className="ll-status-icon" />
              <div>
                <p className="ll-status-title">{CLOSED_TEXT}</p>
                {phase.detail && <p className="ll-status-detail">{phase.detail}</p>}
              </div>
            </div>
          )}
          {phase.kind === 'invalid' && (
            <div className="ll-status ll-status--closed" role="status" data-testid="location-invalid" id={DEAD_REASON_ID}>
              <StopIcon className="ll-status-icon" />
              <div>
                <p className="ll-status-title">{phase.message}</p>
                <p className="ll-status-detail">{INVALID_HINT}</p>
              </div>
            </div>
          )}
          {phase.kind === 'error' && <ErrorPanel message={phase.message} hint={phase.hint} />}

          <p className="ll-note">
            Your location is sent only to the emergency team handling this case
            <span className="ll-case"> (case {caseId.slice(0, 8)})</span>.
          </p>
        </section>
        <p className="ll-footer">In immediate danger? Call your local emergency number.</p>
      </main>
      {toast.view}
    </div>
  );
}
