import type { QueryClient } from '@tanstack/react-query';
import { type AmbulanceDto, type CaseDto, type CaseLocationEvent, type PositionDto, pointWkb } from '../api/contract';
import { queries } from '../api/queries';

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

export function patchCaseLocation(list: CaseDto[] | undefined, l: CaseLocationEvent): CaseDto[] | undefined {
  return list?.map((c) =>
    c.id === l.id && c.version < l.version
      ? { ...c, latitude: l.latitude, longitude: l.longitude, wkb: pointWkb(l.latitude, l.longitude), location_accuracy: l.location_accuracy, location_updated_at: l.location_updated_at, version: l.version }
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
    return { ...a, location: { placeName: null, latitude: p.latitude, longitude: p.longitude, updated_at: p.recorded_at } };
  });
}

/** Applies staff events to the query cache so every screen updates without reload. */
export function applyStaffEvents(socket: import('./socket').LiveSocket, qc: QueryClient): () => void {
  const casesKey = queries.cases().queryKey;
  const ambulancesKey = queries.ambulances().queryKey;
  const handlers: Partial<{ [K in keyof import('../api/contract').ServerToClientEvents]: import('../api/contract').ServerToClientEvents[K] }> = {
    'case.created': (c) => qc.setQueryData(casesKey, (l) => upsert(l, c, true)),
    'case.updated': (c) => qc.setQueryData(casesKey, (l) => upsert(l, c)),
    'case.deleted': ({ id }) => qc.setQueryData(casesKey, (l) => removeById(l, id)),
    'case.location': (l) => qc.setQueryData(casesKey, (list) => patchCaseLocation(list, l)),
    'ambulance.created': (a) => qc.setQueryData(ambulancesKey, (l) => upsert(l, a)),
    'ambulance.updated': (a) => qc.setQueryData(ambulancesKey, (l) => upsert(l, a)),
    'ambulance.deleted': ({ id }) => qc.setQueryData(ambulancesKey, (l) => removeById(l, id)),
    'ambulance.position': ({ positions }) => qc.setQueryData(ambulancesKey, (l) => patchPositions(l, positions)),
    'user.created': () => qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
    'user.updated': () => qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
    'user.deleted': () => qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
  };
  for (const [event, fn] of Object.entries(handlers)) socket.on(event as any, fn as any);
  return () => {
    for (const [event, fn] of Object.entries(handlers)) socket.off(event as any, fn as any);
  };
}
