import { type AmbulanceDto, type CaseDto, type CaseLocationEvent, type PositionDto, pointWkb } from '../api/contract';

/** Pure patches of the cached lists; `liveCache.ts` applies them to the query cache. */

type Versioned = { id: string | number; version: number };

/** Inserts or replaces a row unless the cache already holds the same or a newer version. */
export function upsert<T extends Versioned>(list: T[] | undefined, row: T, prepend = false): T[] | undefined {
  if (!list) return list;
  const i = list.findIndex((x) => x.id === row.id);
  if (i === -1) return prepend ? [row, ...list] : [...list, row];
  if (list[i].version >= row.version) return list;
  const next = list.slice();
  next[i] = row;
  return next;
}

export const removeById = <T extends { id: string | number }>(list: T[] | undefined, id: T['id']) =>
  list?.filter((x) => x.id !== id);

/**
 * Replaces a row of a list kept in name order (the server's `ORDER BY name, id`), or inserts it in
 * its place: for rows without a version (hospitals), whose events come in commit order.
 */
export function putByName<T extends { id: number; name: string }>(list: T[] | undefined, row: T): T[] | undefined {
  if (!list) return list;
  const rest = list.filter((x) => x.id !== row.id);
  const at = rest.findIndex((x) => x.name > row.name || (x.name === row.name && x.id > row.id));
  return at === -1 ? [...rest, row] : [...rest.slice(0, at), row, ...rest.slice(at)];
}

export function patchCaseLocation(list: CaseDto[] | undefined, l: CaseLocationEvent): CaseDto[] | undefined {
  return list?.map((c) =>
    c.id === l.id && c.version < l.version
      ? {
        ...c, latitude: l.latitude, longitude: l.longitude, wkb: pointWkb(l.latitude, l.longitude), location_source: l.location_source,
        location_accuracy: l.location_accuracy, location_updated_at: l.location_updated_at, patient_location: l.patient_location,
        location_mismatch_m: l.location_mismatch_m, version: l.version,
      }
      : c,
  );
}

/** Moves markers forward only: a position older than the one held is dropped. */
export function patchPositions(list: AmbulanceDto[] | undefined, positions: PositionDto[]): AmbulanceDto[] | undefined {
  if (!list) return list;
  const byId = new Map(positions.map((p) => [p.ambulanceId, p]));
  return list.map((a) => {
    const p = byId.get(a.id);
    if (!p) return a;
    const held = a.location?.updated_at;
    if (held && held > p.recorded_at) return a;
    return { ...a, location: { placeName: null, latitude: p.latitude, longitude: p.longitude, updated_at: p.recorded_at, source: p.source, battery: p.battery } };
  });
}
