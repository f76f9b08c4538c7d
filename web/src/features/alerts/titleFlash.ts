/** The title shown while a hidden tab flashes: the alert first, so a narrow tab in the strip shows it. */
export const flashText = (message: string) => `(!) ${message}`;

/** The title for one tick of the flash: the alert on even ticks, the page's own title on odd ones. */
export const flashFrame = (original: string, message: string, tick: number) => (tick % 2 === 0 ? flashText(message) : original);

const PERIOD_MS = 1000;

interface Flash { doc: Document; original: string; message: string; tick: number; timer: ReturnType<typeof setInterval> }
let running: Flash | undefined;

function onVisibility(this: Document) {
  if (!this.hidden) stopTitleFlash();
}

/**
 * Flashes the tab title with `message` while the tab is hidden and puts the page's own title back
 * as soon as it is visible again. A newer alert replaces the message of a running flash. Nothing
 * happens while the tab is visible: the notice on screen is enough.
 */
export function flashTitle(message: string, doc: Document = document): void {
  if (!doc.hidden) return;
  if (running) {
    running.message = message;
    running.tick = 0;
    doc.title = flashFrame(running.original, message, 0);
    return;
  }
  const flash: Flash = {
    doc, original: doc.title, message, tick: 0,
    timer: setInterval(() => {
      flash.tick += 1;
      doc.title = flashFrame(flash.original, flash.message, flash.tick);
    }, PERIOD_MS),
  };
  running = flash;
  doc.title = flashFrame(flash.original, message, 0);
  doc.addEventListener('visibilitychange', onVisibility);
}

/** Ends a running flash and restores the title (the tab became visible, or the alerts unmount). */
export function stopTitleFlash(): void {
  if (!running) return;
  const { doc, original, timer } = running;
  running = undefined;
  clearInterval(timer);
  doc.removeEventListener('visibilitychange', onVisibility);
  doc.title = original;
}
