import type { CaseSuggestion, DivertibleUnit, Priority } from '../../api/contract';
import { UNIT_STATUS_LABELS, priorityTag } from '../../domain/callLife';
import { suggestionDetail } from '../location/suggestions';

/**
 * The words of a waiting call's Assign list: a free unit with its distance and estimated arrival
 * (the dispatch form's words), a unit that could be diverted from a lower-priority call, and the
 * question before taking it. Pure: the list and its dialog only show them.
 */

/** The estimate's words ("1.2 km, ~4 min"), or why there is none: the call has no place yet, or the unit never reported a position. */
function estimate(s: CaseSuggestion, located: boolean): string {
  if (!located) return 'no place for the call yet';
  if (s.distance_m == null || s.eta_s == null) return 'no position known';
  return suggestionDetail({ distance_m: s.distance_m, eta_s: s.eta_s, stale: s.stale });
}

/** "1.2 km, ~4 min" for a ranked unit. */
export const freeUnitDetail = (s: CaseSuggestion, located: boolean) => estimate(s, located);

/** "On a P4 call, en route · 2.3 km, ~6 min". */
export const divertDetail = (d: DivertibleUnit, located: boolean) =>
  `On a ${priorityTag(d.case_priority as Priority)} call, ${UNIT_STATUS_LABELS[d.unit_status].toLowerCase()} · ${estimate(d, located)}`;

/** The confirmation's title and text before a unit is taken from a lower-priority call. */
export function takeQuestion(d: Pick<DivertibleUnit, 'license_plate' | 'case_priority'>, from: string | null, to: { priority: Priority; name: string }) {
  const fromTag = priorityTag(d.case_priority as Priority);
  return {
    title: `Take ${d.license_plate} from the ${fromTag} call?`,
    text: `The ${fromTag} call${from ? ` of ${from}` : ''} goes back to the queue, waiting for an ambulance; ${d.license_plate} goes to the ${priorityTag(to.priority)} call of ${to.name}.`,
    confirm: `Take ${d.license_plate}`,
  };
}

/** The toast after a dispatch: the unit, the call, and the call put back in the queue when one was. */
export function dispatchedText(plate: string, to: { priority: Priority; name: string }, requeued: { priority: Priority; name: string } | null) {
  const sent = `${plate} dispatched to the ${priorityTag(to.priority)} call of ${to.name}`;
  return requeued ? `${sent}; the ${priorityTag(requeued.priority)} call of ${requeued.name} is waiting again` : sent;
}
