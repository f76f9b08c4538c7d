import type { AmbulanceDto, CaseDto } from '../api/contract';
import { isActiveCase } from './caseRules';

export type FleetClass = 'emergency' | 'available' | 'busy' | 'other';

/** Free to take a case: its status says available (the server frees it when its case ends). */
export const isAvailable = (a: Pick<AmbulanceDto, 'status'>) => a.status === 'available';

/** The active case that references an ambulance by ambulance_id or license_plate (SPEC §4). */
export function activeCaseFor(a: Pick<AmbulanceDto, 'id' | 'license_plate'>, cases: CaseDto[]): CaseDto | undefined {
  return cases.find((c) => isActiveCase(c) && (c.ambulance_id === a.id || (c.license_plate != null && c.license_plate === a.license_plate)));
}

/** On Emergency with an active case; else Available or Busy by status; anything else (maintenance) is other. */
export function classify(a: AmbulanceDto, cases: CaseDto[]): FleetClass {
  if (activeCaseFor(a, cases)) return 'emergency';
  if (isAvailable(a)) return 'available';
  if (a.status === 'busy') return 'busy';
  return 'other';
}

/**
 * The words for a class, the same on the fleet counters, its filters and each row's badge:
 * a row says the class it is counted in. Anything else (maintenance) shows its status.
 */
export function fleetClassLabel(fleetClass: FleetClass, status: string | null | undefined): string {
  if (fleetClass === 'emergency') return 'On Emergency';
  if (fleetClass === 'available') return 'Available';
  if (fleetClass === 'busy') return 'Busy';
  const text = ambulanceStatusText(status);
  return text === status ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** How many ambulances are in each class (SPEC §4): the fleet screen's counters and the summaries' tiles. */
export function fleetCounts(ambulances: AmbulanceDto[], cases: CaseDto[]) {
  const counts = { all: ambulances.length, emergency: 0, available: 0, busy: 0, other: 0 };
  for (const a of ambulances) counts[classify(a, cases)] += 1;
  return counts;
}

/** How many ambulances have each status, as the map's legend shows them (not their class). */
export function statusCounts(ambulances: readonly Pick<AmbulanceDto, 'status'>[]) {
  const counts = { available: 0, busy: 0, maintenance: 0 };
  for (const a of ambulances) if (a.status in counts) counts[a.status] += 1;
  return counts;
}

/** Busy divided by total, rounded; 0 with no fleet. */
export function utilizationPercent(busy: number, total: number): number {
  return total > 0 ? Math.round((busy / total) * 100) : 0;
}

/** Marker colour: green available, orange maintenance, red busy and any other status. */
export function markerColor(status: string | null | undefined): string {
  if (status === 'available') return '#2e7d32';
  if (status === 'maintenance') return '#ed6c02';
  return '#d32f2f';
}

/** Status text: known ones as is, anything else uppercase, or UNKNOWN. */
export function ambulanceStatusText(status: string | null | undefined): string {
  if (status === 'available' || status === 'busy' || status === 'maintenance') return status;
  return status ? status.toUpperCase() : 'UNKNOWN';
}

/** Average of the located ambulances, or null when none has a location. */
export function averageCentre(points: { latitude: number; longitude: number }[]): [number, number] | null {
  if (points.length === 0) return null;
  const lat = points.reduce((s, p) => s + p.latitude, 0) / points.length;
  const lon = points.reduce((s, p) => s + p.longitude, 0) / points.length;
  return [lat, lon];
}
