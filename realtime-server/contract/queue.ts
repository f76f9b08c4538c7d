// Dispatching from anywhere a call is seen: a waiting call takes a free unit, or a unit diverted
// from a lower-priority call that goes back to the queue (issue 25, "A busy shift").
import { z } from 'zod';
import { intId } from './common';
import type { CaseDto } from './cases';
import type { DispatchSuggestion } from './location';

/**
 * POST /api/cases/{id}/dispatch (staff, Idempotency-Key): gives the waiting call `ambulance_id`.
 * Without `take_from_case_id` the unit must be free (409 otherwise). With it, the unit is diverted from
 * that call, which must be of a lower priority (a larger number) and not yet reached by the unit
 * (dispatched or en route): that call goes back to the queue (pending, its assignment cancelled, the
 * timeline says who took its unit and for which call), all in one transaction.
 */
export const caseDispatchSchema = z.object({
  ambulance_id: intId(),
  take_from_case_id: z.uuid({ error: 'must be a case id' }).optional(),
});
export type CaseDispatchInput = z.infer<typeof caseDispatchSchema>;

export interface CaseDispatchResponse {
  case: CaseDto;
  /** The call the unit was taken from, waiting again; null when the unit was free. */
  requeued: CaseDto | null;
}

/** A busy unit that may be diverted to a call: on a lower-priority call it has not reached yet. */
export interface DivertibleUnit extends DispatchSuggestion {
  case_id: string;
  case_priority: number;
  unit_status: 'dispatched' | 'en_route';
}

/**
 * GET /api/dispatch/suggestions?case_id={id} (staff): the free units ranked for that call's best-known place
 * (the patient's shared position, else the intake location), and the units that could be diverted to it.
 */
export interface CaseSuggestionsResponse {
  suggestions: DispatchSuggestion[];
  model: { road_factor: number; speed_kmh: number; calibrated: boolean; trips: number };
  /** False when the call has no place yet: `suggestions` are every free unit, in id order, without distances. */
  located: boolean;
  divertible: DivertibleUnit[];
}
