import { type FormEvent, useEffect, useRef, useState } from 'react';
import { AlertIcon, AmbulanceIcon, CheckIcon, formatClock } from '../public/PublicChrome';
import { BACKUP_NOTE_MAX } from './backupSender';
import type { OtherUnit } from './callUnits';
import type { useBackupRequest } from './useBackupRequest';

/** Material Design's DirectionsCar (Apache-2.0) as plain SVG: this page has no icon library. */
export function CarIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M18.92 6.01C18.72 5.42 18.16 5 17.5 5h-11c-.66 0-1.21.42-1.42 1.01L3 12v8c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-1h12v1c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-8l-2.08-5.99zM6.5 16c-.83 0-1.5-.67-1.5-1.5S5.67 13 6.5 13s1.5.67 1.5 1.5S7.33 16 6.5 16zm11 0c-.83 0-1.5-.67-1.5-1.5s.67-1.5 1.5-1.5 1.5.67 1.5 1.5-.67 1.5-1.5 1.5zM5 11l1.5-4.5h11L19 11H5z" />
    </svg>
  );
}

type Backup = ReturnType<typeof useBackupRequest>;

/**
 * Who else is on the call (plate, what the unit can do, its step) and the crew's request for
 * backup: one tap opens an optional note and Send, a second sends, so a stray tap alerts nobody.
 */
export function CallUnitsCard({ units, backup }: { units: OtherUnit[]; backup: Backup }) {
  return (
    <section className="ll-card ll-card--left ll-units" aria-labelledby="driver-units-heading" data-testid="driver-units">
      <h2 id="driver-units-heading" className="ll-units-title">Other units on this call</h2>
      {units.length === 0 ? (
        <p className="ll-muted" data-testid="driver-no-other-units">No other unit on this call.</p>
      ) : (
        <ul className="ll-unit-list">
          {units.map((u, i) => (
            <li key={`${u.plate}-${i}`} className={`ll-unit${u.onCall ? '' : ' ll-unit--off'}`} data-testid="driver-other-unit" data-status={u.status}>
              {u.car ? <CarIcon className="ll-unit-icon" /> : <AmbulanceIcon className="ll-unit-icon" />}
              <span className="ll-unit-text">
                <strong className="ll-unit-plate">{u.plate}</strong>
                <span className="ll-unit-capability">{u.capability}</span>
              </span>
              <span className="ll-unit-step" data-testid="driver-other-unit-step">{u.step}</span>
            </li>
          ))}
        </ul>
      )}
      <BackupControl backup={backup} />
    </section>
  );
}

function BackupControl({ backup }: { backup: Backup }) {
  const { state, open, cancel, send } = backup;
  const outcome = state.outcome;
  const [note, setNote] = useState('');
  const askButton = useRef<HTMLButtonElement>(null);
  const sendButton = useRef<HTMLButtonElement>(null);
  const wasIdle = useRef(true);
  // The button pressed goes away: focus moves to what replaced it (Send, not the note: no keyboard popping up over the page).
  useEffect(() => {
    const idle = state.phase === 'idle';
    if (state.phase === 'confirming') sendButton.current?.focus();
    else if (idle && !wasIdle.current) askButton.current?.focus();
    wasIdle.current = idle;
  }, [state.phase]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(note);
  };
  // A new request starts with an empty note; one that failed keeps its note for the retry.
  const ask = () => {
    if (outcome?.ok) setNote('');
    open();
  };
  const sending = state.phase === 'sending';

  return (
    <div className="ll-backup" data-testid="driver-backup">
      {outcome?.ok && (
        <p className="ll-ok" role="status" data-testid="driver-backup-sent">
          <CheckIcon className="ll-ok-icon" /> Backup requested at {formatClock(outcome.at)}. The dispatcher is alerted.
        </p>
      )}
      {outcome && !outcome.ok && (
        <p className="ll-problem" role="alert" data-testid="driver-backup-problem">Backup not requested: {outcome.error}</p>
      )}
      {state.phase === 'idle' ? (
        <button ref={askButton} type="button" className="ll-button ll-button--backup" onClick={ask} data-testid="driver-backup-request">
          <AlertIcon className="ll-button-icon" /> Request backup
        </button>
      ) : (
        <form className="ll-backup-form" onSubmit={submit}>
          <label htmlFor="driver-backup-note" className="ll-backup-label">What for? (optional)</label>
          <input
            id="driver-backup-note"
            className="ll-backup-note"
            type="text"
            maxLength={BACKUP_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Second patient, lifting help…"
            autoComplete="off"
            disabled={sending}
          />
          <button ref={sendButton} type="submit" className="ll-button ll-button--backup" disabled={sending} aria-busy={sending} data-testid="driver-backup-send">
            {sending ? <span className="ll-spinner" aria-hidden /> : <AlertIcon className="ll-button-icon" />}
            {sending ? 'Sending…' : 'Send backup request'}
          </button>
          <button type="button" className="ll-button ll-button--secondary" onClick={cancel} disabled={sending}>Cancel</button>
        </form>
      )}
    </div>
  );
}
