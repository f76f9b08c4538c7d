import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { activeCasesOf } from '../../domain/caseRules';
import { activeCaseFor, classify, type FleetClass } from '../../domain/fleetRules';

export type FleetFilter = 'all' | 'emergency' | 'available' | 'busy';

/** The filter buttons of the fleet screen with the empty-state reason of each (SPEC §2). */
export const FLEET_FILTERS: readonly { key: FleetFilter; label: string; emptyReason: string }[] = [
  { key: 'all', label: 'All Ambulances', emptyReason: 'No ambulances in the system' },
  { key: 'emergency', label: 'On Emergency', emptyReason: 'No ambulances are currently on emergency calls' },
  { key: 'available', label: 'Available', emptyReason: 'No ambulances are currently available' },
  { key: 'busy', label: 'Busy', emptyReason: 'No ambulances are currently busy' },
];

export interface FleetRow {
  ambulance: AmbulanceDto;
  /** The active case holding this ambulance, if any. */
  activeCase: CaseDto | undefined;
  fleetClass: FleetClass;
}

/** Every ambulance with its active case and class; `cases` may hold any statuses (only active ones count). */
export function fleetRows(ambulances: AmbulanceDto[], cases: CaseDto[]): FleetRow[] {
  const active = activeCasesOf(cases);
  return ambulances.map((ambulance) => ({
    ambulance,
    activeCase: activeCaseFor(ambulance, active),
    fleetClass: classify(ambulance, active),
  }));
}

export const applyFilter = (rows: FleetRow[], filter: FleetFilter) =>
  filter === 'all' ? rows : rows.filter((r) => r.fleetClass === filter);
