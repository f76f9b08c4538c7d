import type { AmbulanceDto, UnitStatus } from '../../api/contract';
import { TURNOUT_TARGET_S } from '../../api/contract';
import { UNIT_STATUS_COLORS, UNIT_STATUS_LABELS, unitStatusOf } from '../../domain/callLife';
import { ambulanceStatusText, markerColor } from '../../domain/fleetRules';

/**
 * An ambulance's unit status as the fleet screen, the map and the admin table show it: one
 * colour and one word per status, how long it has been in it, and the NFPA 1710 turnout flag.
 */

type UnitFields = Pick<AmbulanceDto, 'status'> & Partial<Pick<AmbulanceDto, 'unit_status' | 'unit_status_since'>>;

/** The legend's order: free, then the call's life in order, then out of service. */
export const UNIT_STATUS_ORDER: readonly UnitStatus[] = ['available', 'dispatched', 'en_route', 'on_scene', 'transporting', 'at_hospital', 'handover', 'maintenance'];

const known = (s: string): s is UnitStatus => (UNIT_STATUS_ORDER as readonly string[]).includes(s);

/** The unit status, or null for a status the app does not know (shown then as the spec's uppercase text, in the spec's red). */
export function unitStatus(a: UnitFields): UnitStatus | null {
  const s = unitStatusOf(a);
  return known(s) ? s : null;
}

export const unitColor = (a: UnitFields): string => {
  const s = unitStatus(a);
  return s ? UNIT_STATUS_COLORS[s] : markerColor(a.status);
};

export const unitLabel = (a: UnitFields): string => {
  const s = unitStatus(a);
  return s ? UNIT_STATUS_LABELS[s] : ambulanceStatusText(a.status);
};

/** Whole seconds in the current step, null when the step has no time (available, maintenance). */
export function unitSeconds(a: UnitFields, nowMs: number): number | null {
  const since = a.unit_status_since ? Date.parse(a.unit_status_since) : NaN;
  return Number.isFinite(since) ? Math.max(0, Math.floor((nowMs - since) / 1000)) : null;
}

/** NFPA 1710: still `dispatched` past the turnout target (the crew has not reported en route). */
export function unitTurnoutLate(a: UnitFields, nowMs: number, turnoutS = TURNOUT_TARGET_S): boolean {
  if (unitStatus(a) !== 'dispatched') return false;
  const s = unitSeconds(a, nowMs);
  return s != null && s > turnoutS;
}

/** How many ambulances are in each unit status (every status listed, zeros included). */
export function unitStatusCounts(list: readonly UnitFields[]): Record<UnitStatus, number> {
  const counts = Object.fromEntries(UNIT_STATUS_ORDER.map((s) => [s, 0])) as Record<UnitStatus, number>;
  for (const a of list) {
    const s = unitStatus(a);
    if (s) counts[s] += 1;
  }
  return counts;
}
