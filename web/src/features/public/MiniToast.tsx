import { useCallback, useEffect, useRef, useState } from 'react';

export type MiniToastTone = 'success' | 'error';
interface Toast { id: number; message: string; tone: MiniToastTone }

const AUTO_CLOSE_MS = 5000;

/**
 * A tiny toast for the bare public page (no MUI, no notistack): top-right on wide screens,
 * across the top on phones, closes itself after 5 s (not while the pointer rests on it or the
 * focus is in it) or on its Dismiss button.
 */
export function useMiniToast() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const held = useRef(false);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);

  // A toast whose twin (same text and tone) is on screen is not shown again, as notistack's
  // preventDuplicate does in the staff app.
  const show = useCallback((message: string, tone: MiniToastTone) => {
    const id = nextId.current++;
    setToasts((list) => (list.some((t) => t.message === message && t.tone === tone) ? list : [...list.slice(-2), { id, message, tone }]));
    const close = (after: number) => {
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        // Held while the pointer rests on the toasts or the focus is in them (WCAG 2.2.1): read again in a second.
        if (held.current) close(1000);
        else dismiss(id);
      }, after);
      timers.current.add(timer);
    };
    close(AUTO_CLOSE_MS);
  }, [dismiss]);

  // The region is always there (a live region must exist before its text arrives); each toast is
  // its words and a named close button (a button holding the words and role="status" has no name).
  const view = (
    <div className="ll-toasts" role="status" 
      onMouseEnter={() => { held.current = true; }}
      onMouseLeave={() => { held.current = false; }}
      onFocus={() => { held.current = true; }}
      onBlur={() => { held.current = false; }}
    >
      {toasts.map((t) => (
        <div key={t.id} className={`ll-toast ll-toast--${t.tone}`}>
          <span className="ll-toast-text">{t.message}</span>
          <button type="button" className="ll-toast-close" aria-label="Dismiss" title="Dismiss" onClick={() => dismiss(t.id)}>
            <span aria-hidden>×</span>
          </button>
        </div>
      ))}
    </div>
  );

  return { show, view };
}
