import type { QueryCacheNotifyEvent, QueryClient, QueryKey } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import type { AmbulanceDto, CaseDto, ServerToClientEvents } from '../api/contract';
import { REPORTS_KEY, queries, reportReachesToday } from '../api/queries';
import { patchCaseLocation, patchPositions, removeById, upsert } from './cachePatches';
import { type ConnectionState, type LiveSocket, watchConnection } from './socket';
import { throttle } from './throttle';

type Patch<T> = (list: T[] | undefined) => T[] | undefined;
/** A journalled patch, of the list its journal belongs to (the cases or the ambulances). */
type ListPatch = (list: unknown[] | undefined) => unknown[] | undefined;
type Key = 'cases' | 'ambulances';

/** Past this many events held for one fetch, the fetch is redone instead (memory stays bounded). */
const MAX_JOURNAL = 5000;

/** Reports are computed by the server, not patched here: refetched on call changes, at most this often (a busy centre must not hammer it). */
export const REPORTS_REFRESH_MS = 5000;

/**
 * An ambulance row from an event replaces the cached one only when newer (its version), and
 * even then keeps a position that is newer than the row's: positions arrive in their own
 * events (which carry no version), so a status change committed before the last position
 * must not move the marker back.
 */
function upsertAmbulance(list: AmbulanceDto[] | undefined, row: AmbulanceDto): AmbulanceDto[] | undefined {
  const held = list?.find((a) => a.id === row.id)?.location;
  const fresher = held?.updated_at && (!row.location?.updated_at || held.updated_at > row.location.updated_at);
  return upsert(list, fresher ? { ...row, location: held } : row);
}

/**
 * Wires a staff socket to the TanStack Query cache, so that every screen stays equal to the
 * server without reloads: events patch the cached lists, newer versions only; deleted ids
 * are remembered so a late event cannot bring a row back; and the lists are refetched after
 * every connect (the first included: whatever was fetched before the socket joined its rooms
 * may have missed an event), so nothing missed while offline or across a server restart stays missing.
 *
 * A refetch's answer is a snapshot taken some time after the request left; events that
 * arrive while it is on its way may be newer than it. They are kept in a journal and applied
 * again on top of the snapshot when it lands (each patch only moves a row forward, so
 * applying one twice changes nothing): a refetch never overwrites a newer row with an older one.
 *
 * Plain TypeScript (no React): LiveProvider uses it in the browser, tests in Node.
 * Answers the function that unhooks it (the caller owns and disconnects the socket).
 */
export function connectLiveCache(socket: LiveSocket, qc: QueryClient, onState: (s: ConnectionState) => void = () => {}): () => void {
  const keys: Record<Key, QueryKey> = { cases: queries.cases().queryKey, ambulances: queries.ambulances().queryKey };
  const deleted = { cases: new Set<string>(), ambulances: new Set<number>() };
  /** Per list: whether a fetch is on its way, and the events that arrived since it left. */
  const inFlight: Record<Key, { since: number; journal: ListPatch[] } | undefined> = { cases: undefined, ambulances: undefined };
  /** Counts connects: a fetch that left before the latest one may have missed events. */
  let epoch = 0;

  const keyOf = (queryKey: QueryKey): Key | undefined =>
    (Object.keys(keys) as Key[]).find((k) => queryKey.length === keys[k].length && queryKey.every((part, i) => part === keys[k][i]));

  function apply<T>(key: Key, patch: Patch<T>) {
    qc.setQueryData<T[]>(keys[key], patch);
    const pending = inFlight[key];
    if (!pending) return;
    pending.journal.push(patch as ListPatch);
    if (pending.journal.length > MAX_JOURNAL) {
      inFlight[key] = undefined;
      void qc.invalidateQueries({ queryKey: keys[key], exact: true });
    }
  }

  const onCacheEvent = (event: QueryCacheNotifyEvent) => {
    if (event.type !== 'updated') return;
    const key = keyOf(event.query.queryKey as QueryKey);
    if (!key) return;
    const action = event.action as { type: string; manual?: boolean };
    if (action.type === 'fetch') {
      // The earliest start counts: the journal then holds at least every event the snapshot may lack.
      inFlight[key] ??= { since: epoch, journal: [] };
    } else if (action.type === 'success' && !action.manual) {
      const pending = inFlight[key];
      inFlight[key] = undefined;
      if (!pending) return;
      if (pending.journal.length) qc.setQueryData(keys[key], (list: unknown[] | undefined) => pending.journal.reduce((l, patch) => patch(l), list));
      // Sent before a (re)connect: events in between were never heard; fetch once more.
      if (pending.since !== epoch) void qc.invalidateQueries({ queryKey: keys[key], exact: true });
    } else if (action.type === 'error') {
      inFlight[key] = undefined;
    }
  };
  const unsubscribeCache = qc.getQueryCache().subscribe(onCacheEvent);
  // A period wholly past cannot change with a call taken now: a year's report is not asked for again.
  const refreshReports = throttle(() => void qc.invalidateQueries({ queryKey: REPORTS_KEY, predicate: (q) => reportReachesToday(q.queryKey) }), REPORTS_REFRESH_MS);

  const handlers: Partial<{ [K in keyof ServerToClientEvents]: ServerToClientEvents[K] }> = {
    'case.created': (c) => {
      refreshReports.call();
      if (!deleted.cases.has(c.id)) apply<CaseDto>('cases', (l) => (deleted.cases.has(c.id) ? l : upsert(l, c, true)));
    },
    'case.updated': (c) => {
      refreshReports.call();
      if (!deleted.cases.has(c.id)) apply<CaseDto>('cases', (l) => (deleted.cases.has(c.id) ? l : upsert(l, c)));
    },
    'case.deleted': ({ id }) => {
      refreshReports.call();
      deleted.cases.add(id);
      apply<CaseDto>('cases', (l) => removeById(l, id));
    },
    'case.location': (loc) => apply<CaseDto>('cases', (l) => patchCaseLocation(l, loc)),
    'ambulance.created': (a) => {
      if (!deleted.ambulances.has(a.id)) apply<AmbulanceDto>('ambulances', (l) => (deleted.ambulances.has(a.id) ? l : upsertAmbulance(l, a)));
    },
    'ambulance.updated': (a) => {
      if (!deleted.ambulances.has(a.id)) apply<AmbulanceDto>('ambulances', (l) => (deleted.ambulances.has(a.id) ? l : upsertAmbulance(l, a)));
    },
    'ambulance.deleted': ({ id }) => {
      deleted.ambulances.add(id);
      apply<AmbulanceDto>('ambulances', (l) => removeById(l, id));
    },
    'ambulance.position': ({ positions }) => apply<AmbulanceDto>('ambulances', (l) => patchPositions(l, positions)),
    'user.created': () => void qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
    'user.updated': () => void qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
    'user.deleted': () => void qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
  };
  // Put on and taken off by name: each listener is typed by its event in `handlers`.
  const byName = socket as Socket;
  for (const [event, fn] of Object.entries(handlers)) byName.on(event, fn);

  const stopWatching = watchConnection(socket, (state) => {
    if (state === 'live') {
      epoch += 1;
      // Events heard before the gap say nothing about what the refetch will bring.
      for (const k of Object.keys(inFlight) as Key[]) if (inFlight[k]) inFlight[k].journal = [];
      void qc.invalidateQueries();
    }
    onState(state);
  });

  return () => {
    refreshReports.cancel();
    stopWatching();
    for (const [event, fn] of Object.entries(handlers)) byName.off(event, fn);
    unsubscribeCache();
  };
}
