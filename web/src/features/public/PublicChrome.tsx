/** The header and icons of the bare public phone pages (plain SVG: no icon library). */

export function PublicHeader({ tag }: { tag?: string }) {
  return (
    <header className="ll-header">
      <svg viewBox="0 0 48 48" className="ll-logo" aria-hidden>
        <rect width="48" height="48" rx="12" fill="#fff" />
        <path d="M19 9h10v10h10v10H29v10H19V29H9V19h10z" fill="#d32f2f" />
      </svg>
      <span className="ll-brand">Lifeline</span>
      {tag && <span className="ll-header-tag">{tag}</span>}
    </header>
  );
}

type IconProps = { className?: string };

export function PinIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7zm0 9.5a2.5 2.5 0 0 1 0-5 2.5 2.5 0 0 1 0 5z" />
    </svg>
  );
}

export function CheckIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8l-9 9z" />
    </svg>
  );
}

export function AlertIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm1 15h-2v-2h2v2zm0-4h-2V7h2v6z" />
    </svg>
  );
}

export function StopIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zM4 12c0-4.42 3.58-8 8-8 1.85 0 3.55.63 4.9 1.69L5.69 16.9A7.9 7.9 0 0 1 4 12zm8 8c-1.85 0-3.55-.63-4.9-1.69L18.31 7.1A7.9 7.9 0 0 1 20 12c0 4.42-3.58 8-8 8z" />
    </svg>
  );
}

export function AmbulanceIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <path fill="currentColor" d="M18 10.5V8h-3V4H3c-1.1 0-2 .9-2 2v9h2a3 3 0 0 0 6 0h6a3 3 0 0 0 6 0h2v-4.5l-3-2zM6 16.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zM11 11H9v2H7v-2H5V9h2V7h2v2h2v2zm7 5.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zM17 11V9.5h.5l2.04 1.5H17z" />
    </svg>
  );
}

/** Local time with seconds (so each new fix is visible). */
export function formatClock(value: string | number | null | undefined): string {
  if (value == null || value === '') return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The error panel of the public phone pages: what went wrong and, when known, what to do. */
export function ErrorPanel({ message, hint, testId }: { message: string; hint?: string | null; testId?: string }) {
  return (
    <div className="ll-status ll-status--error" role="alert" data-testid={testId}>
      <AlertIcon className="ll-status-icon" />
      <div>
        <p className="ll-status-title">{message}</p>
        {hint && <p className="ll-status-detail">{hint}</p>}
      </div>
    </div>
  );
}
