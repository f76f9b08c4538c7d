import { type AmbulanceDto, type LatLon, distanceMeters, formatDistance } from '../api/contract';
import { isAvailable } from './fleetRules';
import { pointOf } from './liveText';

export interface RankedAmbulance<A extends AmbulanceDto = AmbulanceDto> {
  ambulance: A;
  /** Straight-line metres to the target; null without a target or without a position. */
  meters: number | null;
}

const byPlate = (a: AmbulanceDto, b: AmbulanceDto) => a.license_plate.localeCompare(b.license_plate, undefined, { numeric: true });

/**
 * The ambulances free to send (status available), plus `keepId` whatever its status (the
 * one a case already holds). With a target: nearest first, each with its distance; those
 * without a position follow, by plate. Without a target: in the order given, no distances.
 */
export function availableByDistance<A extends AmbulanceDto>(
  ambulances: readonly A[],
  target: LatLon | null | undefined,
  options: { keepId?: number | null } = {},
): RankedAmbulance<A>[] {
  const chosen = ambulances.filter((a) => isAvailable(a) || (options.keepId != null && a.id === options.keepId));
  const to = pointOf(target);
  if (!to) return chosen.map((ambulance) => ({ ambulance, meters: null }));
  const ranked = chosen.map((ambulance) => {
    const from = pointOf(ambulance.location);
    return { ambulance, meters: from ? distanceMeters(from, to) : null };
  });
  return ranked.sort((x, y) => {
    if (x.meters == null || y.meters == null) {
      if (x.meters != null) return -1;
      if (y.meters != null) return 1;
      return byPlate(x.ambulance, y.ambulance);
    }
    return x.meters - y.meters || byPlate(x.ambulance, y.ambulance);
  });
}

/** 'TS09 EA 1003 — 1.2 km', or the plate alone when the distance is unknown. */
export function plateWithDistance(plate: string, meters: number | null | undefined): string {
  return meters == null || !Number.isFinite(meters) ? plate : `${plate} — ${formatDistance(meters)}`;
}
