import type { CallAlert } from './alertRules';

export type DesktopPermission = NotificationPermission | 'unsupported';

export const desktopPermission = (): DesktopPermission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/** Asks the browser; call it only from a user's press (never on load). */
export async function askDesktopPermission(): Promise<DesktopPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * A system notification when the user allowed them and is not looking at this tab (a visible,
 * focused tab has the notice on screen). Its tag is the alert's key: a repeat replaces, never stacks.
 */
export function notifyDesktop(alert: CallAlert, doc: Document = document): void {
  if (desktopPermission() !== 'granted') return;
  if (!doc.hidden && doc.hasFocus()) return;
  try {
    const n = new Notification(alert.title, { body: alert.text, tag: alert.key, requireInteraction: alert.priority === 1 });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the notice and sound remain.
  }
}
