import { useQueries } from '@tanstack/react-query';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';

const located = (c: CaseDto) => c.latitude != null && c.longitude != null;

/** Closed calls older than this keep their coordinates: a month of history must not send a thousand look-ups. */
const LOOKUP_CLOSED_FOR_MS = 24 * 3_600_000;

/**
 * Whether a case's place text needs the geocoder: it is at the patient's shared fix (an intake
 * location carries its own text), and the call is open or closed within the last day.
 */
export function needsPlaceLookup(c: CaseDto, now = Date.now()): boolean {
  if (!located(c) || c.location_source === 'intake') return false;
  const open = c.status === 'active' || c.status === 'pending';
  return open || (c.closed_at != null && now - Date.parse(c.closed_at) < LOOKUP_CLOSED_FOR_MS);
}

/**
 * Each case's place text: the address given at intake while that is the best known location;
 * else, for open and recent calls, the name from the server's cached geocoder (the same cache
 * as usePlaceName); else 'latitude, longitude'; 'Location not specified' without coordinates.
 */
export function useCasePlaces(cases: CaseDto[]): Map<string, string> {
  const lookedUp = cases.filter((c) => needsPlaceLookup(c));
  const names = useQueries({
    queries: lookedUp.map((c) => queries.placeName(c.latitude!, c.longitude!)),
    combine: (results) => results.map((r) => r.data),
  });
  const named = new Map(lookedUp.map((c, i) => [c.id, names[i]]));
  const places = new Map<string, string>();
  for (const c of cases) {
    if (!located(c)) places.set(c.id, 'Location not specified');
    else if (c.location_source === 'intake' && c.intake_location) places.set(c.id, c.intake_location.address);
    else places.set(c.id, named.get(c.id) || `${c.latitude}, ${c.longitude}`);
  }
  return places;
}
