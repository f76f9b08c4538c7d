import { CALL_RECEIVED_MAX_AGE_MS, PRIORITIES, priorityForType, type Priority, type PriorityInfo } from '../../api/contract';
import { formatClock } from '../../domain/callLife';

/**
 * Call intake rules of the New Case form (issue 15): the priority the form shows, and the
 * moment the operator started taking the call (NEMSIS eTimes.01, the start of the response clock).
 */

const isPriority = (n: number): n is Priority => (PRIORITIES as readonly number[]).includes(n);

/**
 * The priority the form holds: the operator's own choice once made, else the server's
 * derivation from the type (so what the form shows is what the server would store), else none.
 */
export function formPriority(picked: string, emergencyType: string): Priority | null {
  const n = Number(picked);
  if (picked !== '' && isPriority(n)) return n;
  return emergencyType.trim() ? priorityForType(emergencyType) : null;
}

/** "1 — Life-threatening": how the select and the toasts name a priority. */
export const priorityOptionLabel = (p: Pick<PriorityInfo, 'priority' | 'label'>) => `${p.priority} — ${p.label}`;

/** Keys that move around the form without taking down anything the caller said. */
const NAVIGATION_KEYS = new Set(['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'Escape', 'CapsLock', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/** Does this key press start the call's clock? Typing does; tabbing through the form does not. */
export const startsCall = (key: string) => !NAVIGATION_KEYS.has(key);

/** The call's start, kept once set: the first keystroke or the "Call started" button wins. */
export const noteCallStart = (current: number | null, nowMs: number): number => current ?? nowMs;

/** Margin for the request's own trip, so a start right at the server's one-hour limit is not refused on arrival. */
const TRIP_MARGIN_MS = 30_000;

/**
 * `call_received_at` as sent: the start in the server's time (ISO), never after now and never
 * older than the server accepts (a form left open past an hour still dispatches; the call did
 * start at least that long ago). Null when the clock never started: the server then takes
 * the creation time.
 */
export function callReceivedAt(startMs: number | null, serverNowMs: number): string | null {
  if (startMs == null) return null;
  const oldest = serverNowMs - CALL_RECEIVED_MAX_AGE_MS + TRIP_MARGIN_MS;
  return new Date(Math.min(serverNowMs, Math.max(oldest, startMs))).toISOString();
}

/** "Call started 0:42 ago". */
export const callStartedText = (startMs: number, nowMs: number) => `Call started ${formatClock((nowMs - startMs) / 1000)} ago`;

/** The first 8 characters of a case id, as every screen shows it (SPEC §9). */
const shortId = (caseId: string) => caseId.slice(0, 8);

/** Whose share link a panel holds: "Share-location link of Ravi Kumar's call (case 1a2b3c4d)". */
export const shareLinkTitle = (c: { patientName: string; caseId: string }) =>
  `Share-location link of ${c.patientName.trim() || 'Unknown Patient'}'s call (case ${shortId(c.caseId)})`;
