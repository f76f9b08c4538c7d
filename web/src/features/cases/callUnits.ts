import { type AssignmentDto, type AssignmentStatus, type CaseDto, type CaseSuggestion, type DispatchPlan, type Priority, isOpenAssignment } from '../../api/contract';
import { UNIT_STATUS_LABELS, priorityTag } from '../../domain/callLife';
import { capabilityWords } from '../shared/capabilityWords';
import { freeUnitDetail } from './assignText';

/**
 * The words and rules of a call's several units (issue 29): which units the card lists and how,
 * which may be stood down, what the Add unit dialog preselects and says. Pure: the card and its
 * dialogs only show them.
 */

/** Steps before the scene: a unit there may still be stood down (after it, it clears instead). */
const BEFORE_SCENE: readonly AssignmentStatus[] = ['dispatched', 'en_route'];

/** Whether a unit may be stood down: open, with an ambulance, not yet on scene. */
export const canStandDown = (a: Pick<AssignmentDto, 'status' | 'ambulance_id'>) => a.ambulance_id != null && BEFORE_SCENE.includes(a.status);

/**
 * The call's units as the card lists them: the server's order (open first, each group by dispatch
 * time), split into those on the call and those that left it (cleared or stood down). A waiting
 * call shows only the ones that left: its open unit, if any, is being replaced.
 */
export function callUnits(c: Pick<CaseDto, 'status' | 'assignments' | 'assignment'>): { open: AssignmentDto[]; ended: AssignmentDto[] } {
  // An older answer without the list still names its primary unit.
  const all = c.assignments?.length ? c.assignments : c.assignment ? [c.assignment] : [];
  const open = all.filter((a) => isOpenAssignment(a.status));
  const ended = all.filter((a) => !isOpenAssignment(a.status));
  return { open: c.status === 'pending' ? [] : open, ended };
}

const plateOf = (a: Pick<AssignmentDto, 'license_plate' | 'ambulance_id'>) => a.license_plate ?? (a.ambulance_id != null ? `Ambulance #${a.ambulance_id}` : 'A unit');

/** "TS09 EA 1008 · Car — cannot convey · Cancelled": one line for a unit that left the call, in the steps' own words. */
export const endedUnitText = (a: Pick<AssignmentDto, 'license_plate' | 'ambulance_id' | 'capability' | 'status'>) =>
  `${plateOf(a)} · ${capabilityWords(a.capability)} · ${UNIT_STATUS_LABELS[a.status]}`;

/** "2 units on this call", "1 unit on this call": the units list's heading. */
export const unitsHeading = (open: number) => (open === 1 ? '1 unit on this call' : `${open} units on this call`);

/** The question before standing a unit down: the last one on the call sends the call back to the queue. */
export function standDownQuestion(a: Pick<AssignmentDto, 'license_plate' | 'ambulance_id'>, othersOpen: number) {
  const plate = plateOf(a);
  return {
    title: `Stand down ${plate}?`,
    text: othersOpen > 0
      ? `${plate} leaves this call and is free for the next one. The other units stay on the call.`
      : `${plate} leaves this call and is free for the next one. No unit is left on the call: it waits for an ambulance again.`,
    confirm: 'Stand down',
  };
}

export const STAND_DOWN_MAX = 500;

/** Why the reason is refused, or null: required, at most 500 characters (the contract's standDownSchema). */
export function standDownReasonError(reason: string): string | null {
  const r = reason.trim();
  if (!r) return 'Say why the unit is stood down';
  if (r.length > STAND_DOWN_MAX) return `At most ${STAND_DOWN_MAX} characters`;
  return null;
}

/** The units the plan sends that the list still offers (free now), in the plan's order. */
export function planSelection(plan: Pick<DispatchPlan, 'send'> | null | undefined, offered: readonly Pick<CaseSuggestion, 'ambulance_id'>[]): number[] {
  if (!plan) return [];
  const free = new Set(offered.map((s) => s.ambulance_id));
  return plan.send.filter((id) => free.has(id));
}

/** "P1 needs ALS or better": what the units are measured against. */
export const needText = (p: Priority, need: string) => `${priorityTag(p)} needs ${need.toUpperCase()} or better`;

/** "Meets the need" or "Below the need" beside each unit, in words (never only a colour). */
export const meetsNeedText = (meets: boolean) => (meets ? 'Meets the need' : 'Below the need');

/** "Meets the need · 1.2 km, ~4 min": a unit's line in the Add unit dialog, after its plate and capability. */
export const unitChoiceDetail = (s: CaseSuggestion, located: boolean) => `${meetsNeedText(s.meets_need)} · ${freeUnitDetail(s, located)}`;

/** The plan's reason as the dialog and the form lead with it: "Suggested: car TS09 EA 1008, ~2 min; ambulance TS09 EA 1001, ~9 min: send both". */
export const planReasonText = (plan: Pick<DispatchPlan, 'reason'>) => `Suggested: ${plan.reason}`;

/** The Add button's words for what is ticked. */
export const addButtonText = (count: number) => (count <= 1 ? 'Add unit' : `Add ${count} units`);

/** The toast after units were added: "TS09 EA 1008 and TS09 EA 1001 added to the P1 call of Ravi Kumar". */
export function addedText(plates: readonly string[], to: { priority: Priority; name: string }): string {
  const list = plates.length <= 1 ? plates.join('') : `${plates.slice(0, -1).join(', ')} and ${plates[plates.length - 1]}`;
  return `${list} added to the ${priorityTag(to.priority)} call of ${to.name}`;
}

/** One unit's refusal as the dialog lists it: "TS09 EA 1002: Ambulance TS09 EA 1002 is not available; choose another ambulance". */
export const unitErrorText = (plate: string, error: string | undefined) => `${plate}: ${error ?? 'Could not add the unit'}`;
