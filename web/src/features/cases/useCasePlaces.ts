import { useQueries } from '@tanstack/react-query';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';

const located = (c: CaseDto) => c.latitude != null && c.longitude != null;

/**
 * Each case's place text, resolved one by one through the server's cached geocoder (the
 * same cache as usePlaceName): 'latitude, longitude' until or unless it has a name, and
 * 'Location not specified' without coordinates. Looked up again whenever the cases change.
 */
export function useCasePlaces(cases: CaseDto[]): Map<string, string> {
  const withPoint = cases.filter(located);
  const names = useQueries({
    queries: withPoint.map((c) => queries.placeName(c.latitude!, c.longitude!)),
    combine: (results) => results.map((r) => r.data),
  });
  const places = new Map<string, string>();
  withPoint.forEach((c, i) => places.set(c.id, names[i] || `${c.latitude}, ${c.longitude}`));
  for (const c of cases) if (!located(c)) places.set(c.id, 'Location not specified');
  return places;
}
