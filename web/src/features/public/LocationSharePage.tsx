import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useMiniToast } from './MiniToast';
import {
  type SavedLocation, currentPosition, geolocationSupported, isGeolocationError, readSavedLocation, saveLocation, sendLocation,
} from './locationShare';
import './public.css';

type Phase =
  | { kind: 'idle' }
  | { kind: 'sharing' }
  | { kind: 'shared'; saved: SavedLocation }
  | { kind: 'error'; message: string; hint?: string }
  | { kind: 'fatal'; message: string };

const NOT_SUPPORTED = 'Geolocation is not supported by your browser';
const SHARE_FAILED = 'Failed to share location. Please try again.';
const CHECK_FAILED = 'Failed to check location status. Please try again.';
const DENIED_HINT = 'Location access is blocked for this page. Allow it in your browser settings, then try again.';

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
 * /location/{caseId}: the patient shares where they are. Plain React and one small CSS
 * file, no MUI and no map, so it opens quickly on a weak phone over a poor connection.
 */
export function LocationSharePage({ caseId }: { caseId: string }) {
  const [phase, setPhase] = useState<Phase>(() => initialPhase(caseId));
  const toast = useMiniToast();
  const busy = phase.kind === 'sharing';

  async function share() {
    if (!geolocationSupported()) {
      toast.show(NOT_SUPPORTED, 'error');
      setPhase({ kind: 'error', message: NOT_SUPPORTED });
      return;
    }
    setPhase({ kind: 'sharing' });
    try {
      const position = await currentPosition();
      await sendLocation(caseId, position.coords);
      const saved = saveLocation(caseId, position.coords.latitude, position.coords.longitude);
      setPhase({ kind: 'shared', saved });
      toast.show('Location shared successfully', 'success');
    } catch (error) {
      const message = error instanceof ApiError && error.serverError ? error.serverError : SHARE_FAILED;
      const hint = isGeolocationError(error) && error.code === error.PERMISSION_DENIED ? DENIED_HINT : undefined;
      setPhase({ kind: 'error', message, hint });
      toast.show('Failed to share location', 'error');
    }
  }

  if (phase.kind === 'fatal') {
    return (
      <div className="ll-page">
        <Header />
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

  return (
    <div className="ll-page">
      <Header />
      <main className="ll-main">
        <section className="ll-card" aria-labelledby="ll-heading">
          <PinIcon className="ll-hero-icon" />
          <h1 id="ll-heading" className="ll-title">Emergency Location Sharing</h1>
          <p className="ll-text">
            Click the button below to share your current location with emergency services, so the ambulance can find you.
          </p>

          <button type="button" className="ll-button" onClick={share} disabled={busy} aria-busy={busy}>
            {busy ? <span className="ll-spinner" aria-hidden /> : <PinIcon className="ll-button-icon" />}
            {busy ? 'Sharing...' : 'Share My Location'}
          </button>

          {phase.kind === 'shared' && (
            <div className="ll-status ll-status--success" role="status">
              <CheckIcon className="ll-status-icon" />
              <div>
                <p className="ll-status-title">Your location has been shared successfully.</p>
                {phase.saved.updated_at && (
                  <p className="ll-status-detail">
                    Shared {formatTime(phase.saved.updated_at)} · {phase.saved.latitude.toFixed(5)}, {phase.saved.longitude.toFixed(5)}
                  </p>
                )}
              </div>
            </div>
          )}
          {phase.kind === 'error' && (
            <div className="ll-status ll-status--error" role="alert">
              <AlertIcon className="ll-status-icon" />
              <div>
                <p className="ll-status-title">{phase.message}</p>
                {phase.hint && <p className="ll-status-detail">{phase.hint}</p>}
              </div>
            </div>
          )}

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

function Header() {
  return (
    <header className="ll-header">
      <svg viewBox="0 0 48 48" className="ll-logo" aria-hidden>
        <rect width="48" height="48" rx="12" fill="#fff" />
        <path d="M19 9h10v10h10v10H29v10H19V29H9V19h10z" fill="#d32f2f" />
      </svg>
      <span className="ll-brand">Lifeline</span>
    </header>
  );
}

type IconProps = { className?: string };

function PinIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7zm0 9.5a2.5 2.5 0 0 1 0-5 2.5 2.5 0 0 1 0 5z" />
    </svg>
  );
}

function CheckIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8l-9 9z" />
    </svg>
  );
}

function AlertIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm1 15h-2v-2h2v2zm0-4h-2V7h2v6z" />
    </svg>
  );
}
