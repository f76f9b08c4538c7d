import { type AssignmentDto, type AssignmentStatus, type UnitStep, TIMED_STEPS } from '../../api/contract';
import { nextUnitStep } from '../../domain/callLife';

/**
 * The crew's side of a call's life: which step the big button offers, which skips sit beside
 * it, and what status the phone shows while presses wait to be sent. Pure rules.
 */

/** One press of a step button, with the device's time of the press (sent as `at`). */
export interface UnitPress { status: UnitStep; at: string }

/** The words on the step buttons: what the crew is doing from now on. */
export const STEP_BUTTON: Record<UnitStep, string> = {
  en_route: 'En route',
  on_scene: 'On scene',
  transporting: 'Transporting',
  at_hospital: 'At hospital',
  handover: 'Handover complete',
  cleared: 'Clear',
};

/**
 * The skips a crew may take beside the next step: on scene straight from dispatch (the en-route
 * press was forgotten), clear from the scene (treated there, no transport), and clear at the
 * hospital (the handover went unrecorded).
 */
const SKIPS: Partial<Record<AssignmentStatus, UnitStep[]>> = {
  dispatched: ['on_scene'],
  on_scene: ['cleared'],
  // Handover pressed by the hospital, or not recorded: the crew clears.
  at_hospital: ['cleared'],
};

export interface StepChoices {
  /** The one big button; null once the assignment is over. */
  next: UnitStep | null;
  /** Smaller buttons that skip past `next`. */
  skips: UnitStep[];
}

export function stepChoices(status: AssignmentStatus | null | undefined): StepChoices {
  const next = nextUnitStep(status);
  return { next, skips: next && status ? (SKIPS[status] ?? []) : [] };
}

/** Order of progress: the timed steps, then `cancelled` (also final). */
const rank = (s: AssignmentStatus) => (s === 'cancelled' ? TIMED_STEPS.length : TIMED_STEPS.indexOf(s));

/** True when `to` lies ahead of `from` (a press that the server would take). */
export const isAhead = (from: AssignmentStatus | null | undefined, to: AssignmentStatus) =>
  from !== 'cleared' && from !== 'cancelled' && rank(to) > (from ? rank(from) : -1);

/**
 * The status the crew sees: the server's, moved on by the presses still waiting to be sent
 * (in order; one that would go back is ignored, as the server will refuse it).
 */
export function expectedStatus(server: AssignmentStatus | null | undefined, waiting: readonly UnitPress[]): AssignmentStatus | null {
  let status = server ?? null;
  for (const p of waiting) if (isAhead(status, p.status)) status = p.status;
  return status;
}

/**
 * The newer of two views of the assignment (the tracking link's answer, a press's ack): a
 * later assignment wins, and within one the further step (steps only go forward).
 */
export function furthest(a: AssignmentDto | null | undefined, b: AssignmentDto | null | undefined): AssignmentDto | null {
  if (!a) return b ?? null;
  if (!b) return a;
  if (a.id !== b.id) return b.id > a.id ? b : a;
  return rank(b.status) > rank(a.status) ? b : a;
}
