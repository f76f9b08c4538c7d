import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { activeCasesOf } from '../../domain/caseRules';
import { fleetCounts, utilizationPercent } from '../../domain/fleetRules';

export interface SummaryStats {
  activeCases: number;
  /** Status available and on no active case: the fleet screen's Available. */
  available: number;
  /** Every ambulance in service: the fleet screen's On Emergency plus its Busy. */
  busy: number;
  onEmergency: number;
  /** Busy with no active case (the fleet screen's Busy). */
  busyNoCase: number;
  total: number;
  /** Busy divided by total, rounded; 0 with no fleet. */
  utilization: number;
}

/**
 * The operator summary's numbers, from the live cases and ambulances, classified exactly as
 * the fleet screen classifies them (SPEC §4), so the two screens never disagree.
 */
export function summaryStats(cases: CaseDto[], ambulances: AmbulanceDto[]): SummaryStats {
  const counts = fleetCounts(ambulances, cases);
  const busy = counts.emergency + counts.busy;
  return {
    activeCases: activeCasesOf(cases).length,
    available: counts.available,
    busy,
    onEmergency: counts.emergency,
    busyNoCase: counts.busy,
    total: ambulances.length,
    utilization: utilizationPercent(busy, ambulances.length),
  };
}

/** The Busy Ambulances tile's breakdown, in the fleet screen's words. */
export const busyBreakdown = (s: Pick<SummaryStats, 'onEmergency' | 'busyNoCase'>) =>
  `${s.onEmergency} On Emergency · ${s.busyNoCase} Busy`;
