import type { DriverDispatched } from '../../api/contract';

/**
 * The crew's page between calls, without React (docs/api.md "The driver link between calls"): once its call ends
 * the server keeps its socket as a link waiting for the ambulance's next call (`driver.standby`),
 * and offers that call with a driver link of its own (`driver.dispatched`). The page switches to
 * the new link in place (history.replaceState through the router), beeps unless muted, and the
 * new page says "New call" once (the note below, kept for one switch in sessionStorage).
 */

/** What the new page is told about the switch that opened it. */
export interface Handoff {
  ambulanceId: number;
  caseId: string;
  /** The unit was taken off its call just before: diverted. */
  diverted: boolean;
  at: number;
}

const handoffKey = (ambulanceId: number | string) => `lifeline.driverHandoff.${ambulanceId}`;
const MUTE_KEY = 'lifeline.driver.muted';
/** A note older than this is not about the page that reads it (a tab reopened later). */
const HANDOFF_MAX_AGE_MS = 60_000;

/** The `t` token of a `/driver/{id}?t=…` link, or null for anything else. */
export function tokenOfLink(link: string, ambulanceId: number): string | null {
  try {
    const url = new URL(link, 'http://page.invalid');
    if (url.pathname !== `/driver/${ambulanceId}`) return null;
    const t = url.searchParams.get('t');
    return t && /^[A-Za-z0-9_-]{16,200}$/.test(t) ? t : null;
  } catch {
    return null;
  }
}

export function saveHandoff(storage: Storage | null, offer: DriverDispatched, now = Date.now()): void {
  const note: Handoff = { ambulanceId: offer.ambulanceId, caseId: offer.caseId, diverted: offer.from.ended === 'cancelled', at: now };
  try {
    storage?.setItem(handoffKey(offer.ambulanceId), JSON.stringify(note));
  } catch { /* storage blocked: the new page shows the call without the "New call" note */ }
}

/** The note left by the switch that opened this page, if fresh (it names the call it is for). */
export function readHandoff(storage: Storage | null, ambulanceId: string, now = Date.now()): Handoff | null {
  try {
    const raw = storage?.getItem(handoffKey(ambulanceId));
    const note = raw ? (JSON.parse(raw) as Partial<Handoff>) : null;
    return note && typeof note.caseId === 'string' && typeof note.at === 'number' && now - note.at <= HANDOFF_MAX_AGE_MS ? (note as Handoff) : null;
  } catch {
    return null;
  }
}

/** The note is read once: a reload does not say "New call" again. */
export function forgetHandoff(storage: Storage | null, ambulanceId: string): void {
  try {
    storage?.removeItem(handoffKey(ambulanceId));
  } catch { /* storage blocked */ }
}

/** sessionStorage when the browser lets the page use it (the note lives for the tab). */
export function tabStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function isMutedDriver(storage: Storage | null): boolean {
  try {
    return storage?.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export function setMutedDriver(storage: Storage | null, muted: boolean): void {
  try {
    if (muted) storage?.setItem(MUTE_KEY, '1');
    else storage?.removeItem(MUTE_KEY);
  } catch { /* storage blocked: the choice lasts while the page is open */ }
}
