import { type AmbulanceDto, type DispatchPlan, type DispatchPlanUnit, arrivalMinutes } from '../../api/contract';
import { type RankedChoice, formAmbulance } from '../location/suggestions';
import { capabilityWords } from '../shared/capabilityWords';

/**
 * The New Case form and the server's plan for the call's priority (contract DispatchPlan): the
 * unit it would send first, the second one for "send both" (a car that cannot convey, or a unit
 * below the need, with the quickest one that meets it), and their words. Pure.
 */

const isFree = (available: readonly Pick<AmbulanceDto, 'id'>[], id: number) => available.some((a) => a.id === id);

/**
 * The ranked units with the plan's first: the server ranks units meeting the need first, while the
 * plan may start with a quicker car that cannot convey; the one-click choices and the select then
 * show what the form preselects, and the rest keep the server's order.
 */
export function planFirst(ranked: readonly RankedChoice[], plan: Pick<DispatchPlan, 'send'> | null): RankedChoice[] {
  if (!plan?.send.length) return [...ranked];
  const planned = plan.send.flatMap((id) => ranked.filter((r) => r.ambulance.id === id));
  return [...planned, ...ranked.filter((r) => !plan.send.includes(r.ambulance.id))];
}

/**
 * The ambulance the form holds: the operator's own pick once made (formAmbulance), else the plan's
 * first unit while it is free, else the quickest suggested one.
 */
export function plannedAmbulance(picked: string, plan: DispatchPlan | null, ranked: readonly RankedChoice[], available: readonly AmbulanceDto[]): string {
  if (picked === '' && plan?.send.length && isFree(available, plan.send[0])) return String(plan.send[0]);
  return formAmbulance(picked, ranked, available);
}

/**
 * The plan's other unit to send with the form's one: when the plan sends two and the form holds
 * one of them (picked or preselected), the other, while it is free. Null when the plan sends one,
 * the dispatcher chose a unit outside the plan, or the other was taken meanwhile.
 */
export function planPartner(plan: DispatchPlan | null, firstId: string, available: readonly Pick<AmbulanceDto, 'id'>[]): DispatchPlanUnit | null {
  if (!plan || plan.send.length < 2 || firstId === '') return null;
  const first = Number(firstId);
  if (!plan.send.includes(first)) return null;
  const other = plan.send.find((id) => id !== first);
  if (other == null || !isFree(available, other)) return null;
  const units = [plan.first, plan.transport].filter((u): u is DispatchPlanUnit => u != null);
  return units.find((u) => u.ambulance_id === other) ?? null;
}

/** "Also send TS09 EA 1001 · ALS · ~9 min": the second unit's checkbox. */
export function alsoSendText(u: Pick<DispatchPlanUnit, 'license_plate' | 'capability' | 'eta_s'>): string {
  const eta = u.eta_s != null ? ` · ~${arrivalMinutes(u.eta_s)} min` : '';
  return `Also send ${u.license_plate} · ${capabilityWords(u.capability)}${eta}`;
}

/** The select's second line for a unit: its capability in words, then where it stands when known. */
export const choiceDetail = (a: Pick<AmbulanceDto, 'capability'> & { location?: { placeName?: string | null } | null }) =>
  [capabilityWords(a.capability), a.location?.placeName].filter(Boolean).join(' · ');
