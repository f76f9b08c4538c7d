// Dispatching from anywhere a call is seen: a waiting call takes a free unit, or a unit diverted
// from a lower-priority call that goes back to the queue (issue 25, "A busy shift").
import { z } from 'zod';
import { intId } from './common';
import type { CaseDto } from './cases';
import type { DispatchPlan, DispatchSuggestion } from './location';

/**
 * POST /api/cases/{id}/dispatch (staff, Idempotency-Key): gives the waiting call `ambulance_id`.
 * A waiting call is a pending one, or an active one without a unit. Without `take_from_case_id`
 * the unit must be free (409 otherwise). With it, the unit is diverted from that call, which must
 * be of a lower priority (a larger number) and not yet reached by the unit (dispatched or en
 * route): that call goes back to the queue (pending, its assignment cancelled, its tracking links
 * revoked, the timeline says who took its unit and for which call), all in one transaction.
 * `null` for `take_from_case_id` is the same as leaving it out (a form's empty choice).
 */
export const caseDispatchSchema = z.object({
  ambulance_id: intId(),
  take_from_case_id: z.uuid({ error: 'must be a case id' }).nullish(),
});
export type CaseDispatchInput = z.infer<typeof caseDispatchSchema>;

export interface CaseDispatchResponse {
  case: CaseDto;
  /** The call the unit was taken from, waiting again; null when the unit was free. */
  requeued: CaseDto | null;
}

/** GET /api/dispatch/suggestions?case_id={id} (the other form, ?latitude=&longitude=, is suggestionsQuerySchema). */
export const caseSuggestionsQuerySchema = z.strictObject({
  case_id: z.uuid({ error: 'must be a case id' }),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'give either case_id or latitude and longitude, not both' : undefined) });

/**
 * A unit offered for a call: a DispatchSuggestion where nothing can be estimated is null:
 * `distance_m` and `eta_s` when the call has no place yet or the unit never reported a
 * position, `position_age_s` for the latter (which is also `stale`).
 */
export interface CaseSuggestion extends Omit<DispatchSuggestion, 'distance_m' | 'eta_s' | 'position_age_s'> {
  distance_m: number | null;
  eta_s: number | null;
  position_age_s: number | null;
}

/** A busy unit that may be diverted to a call: on a lower-priority call it has not reached yet. */
export interface DivertibleUnit extends CaseSuggestion {
  case_id: string;
  case_priority: number;
  unit_status: 'dispatched' | 'en_route';
}

/**
 * GET /api/dispatch/suggestions?case_id={id} (staff): the free units ranked for that call's best-known place
 * (the patient's shared position, else the intake location), and the units that could be diverted to it.
 * Both lists rank as the ?latitude=&longitude= form does (fresh fixes by ETA, then stale ones), then
 * list the units that never reported a position, in id order, with null estimates; unlike that form,
 * every free unit is offered, so that a call can always be dispatched from its card.
 */
export interface CaseSuggestionsResponse {
  suggestions: CaseSuggestion[];
  model: { road_factor: number; speed_kmh: number; calibrated: boolean; trips: number };
  /** False when the call has no place yet: both lists are in id order, without distances (null). */
  located: boolean;
  divertible: DivertibleUnit[];
  /** For the call's priority, from the free units (contract DispatchPlan). */
  plan: DispatchPlan;
}
