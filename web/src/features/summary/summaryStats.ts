import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { utilizationPercent } from '../../domain/fleetRules';

export interface SummaryStats {
  activeCases: number;
  available: number;
  busy: number;
  total: number;
  /** Busy divided by total, rounded; 0 with no fleet. */
  utilization: number;
}

/** The operator summary's numbers, from the live cases and ambulances. */
export function summaryStats(cases: CaseDto[], ambulances: AmbulanceDto[]): SummaryStats {
  const available = ambulances.filter((a) => a.status === 'available').length;
  const busy = ambulances.filter((a) => a.status === 'busy').length;
  return {
    activeCases: cases.filter((c) => c.status === 'active').length,
    available,
    busy,
    total: ambulances.length,
    utilization: utilizationPercent(busy, ambulances.length),
  };
}
