import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import type { AmbulanceDto, HospitalDto, ServerToClientEvents } from '../api/contract';
import { CASE_HISTORY_KEY, queries } from '../api/queries';
import { REPORTS_KEY, reportRefreshMs } from '../api/reportRefresh';
import { noteBackupRequest } from './backupAlerts';
import { dropPrealertAlert, notePrealertLate } from './prealertAlerts';
import { caseBoardOf } from './caseBoard';
import { patchPositions, putByName, removeById, upsert } from './cachePatches';
import { fetchJournal } from './fetchJournal';
import { historyChangesOf } from './historyChanges';
import { reportRefresher } from './reportRefresher';
import { type ConnectionState, type LiveSocket, watchConnection } from './socket';

type Patch<T> = (list: T[] | undefined) => T[] | undefined;

/** A reconnect refetches after a random wait up to this: a deploy must not make every tab ask at once. */
export const RECONNECT_SPREAD_MS = 3000;

export interface LiveCacheOptions {
  /** 0 ≤ x < 1 (Math.random); tests inject it. */
  random?: () => number;
  /** Runs `fn` after `ms` and answers how to cancel it (setTimeout); tests inject it. */
  delay?: (fn: () => void, ms: number) => () => void;
}

const timeout = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

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
 * server without reloads. Case events go to the board's one writer (caseBoard.ts), which
 * patches the board and its counts and notes the call for history pages; ambulance events
 * patch the fleet, newer versions only; deleted ids are remembered so a late event cannot
 * bring a row back. Nothing refetches history: a history page is offered "N new or changed calls".
 * Case events also refresh the server-computed reports they can alter (reportRefresher.ts).
 *
 * On every connect (the first included: whatever was fetched before the socket joined its
 * rooms may have missed an event) the board and the fleet are refetched: at once the first
 * time, after a random 0–3 s on a reconnect (a server restart reconnects every tab at once).
 * Other cached queries are only marked stale (they refetch when next shown; a report of a period
 * wholly past is not, as nothing missed can change it), and history pages
 * are marked "changed by an unknown count". Changes heard while a fetch is on its way are
 * applied again on its snapshot (fetchJournal.ts).
 *
 * Plain TypeScript (no React): LiveProvider uses it in the browser, tests in Node.
 * Answers the function that unhooks it (the caller owns and disconnects the socket).
 */
export function connectLiveCache(
  socket: LiveSocket,
  qc: QueryClient,
  onState: (s: ConnectionState) => void = () => {},
  options: LiveCacheOptions = {},
): () => void {
  const { random = Math.random, delay = timeout } = options;
  const board = caseBoardOf(qc);
  const history = historyChangesOf(qc);
  const fleetKey = queries.ambulances().queryKey;
  const boardKey = queries.cases().queryKey;
  const deletedAmbulances = new Set<number>();
  const hospitalsKey = queries.hospitals().queryKey;
  const deletedHospitals = new Set<number>();
  const fleetJournal = fetchJournal<Patch<AmbulanceDto>>(qc, fleetKey, (patches) =>
    qc.setQueryData<AmbulanceDto[]>(fleetKey, (list) => patches.reduce((l, patch) => patch(l), list)));

  function patchFleet(patch: Patch<AmbulanceDto>) {
    qc.setQueryData<AmbulanceDto[]>(fleetKey, patch);
    fleetJournal.record(patch);
  }

  const reports = reportRefresher(qc, delay);

  const handlers: Partial<{ [K in keyof ServerToClientEvents]: ServerToClientEvents[K] }> = {
    'case.created': (c) => {
      reports.callChanged();
      board.put(c, { created: true });
    },
    'case.updated': (c) => {
      reports.callChanged();
      board.put(c);
    },
    'case.deleted': ({ id }) => {
      reports.callChanged();
      board.remove(id);
    },
    'case.location': (loc) => board.location(loc),
    'ambulance.created': (a) => {
      if (!deletedAmbulances.has(a.id)) patchFleet((l) => (deletedAmbulances.has(a.id) ? l : upsertAmbulance(l, a)));
    },
    'ambulance.updated': (a) => {
      if (!deletedAmbulances.has(a.id)) patchFleet((l) => (deletedAmbulances.has(a.id) ? l : upsertAmbulance(l, a)));
    },
    'ambulance.deleted': ({ id }) => {
      deletedAmbulances.add(id);
      patchFleet((l) => removeById(l, id));
    },
    'ambulance.position': ({ positions }) => patchFleet((l) => patchPositions(l, positions)),
    // Not a row to patch but an alert: held for the alerts and the call's card (features/alerts).
    'backup.requested': (a) => noteBackupRequest(qc, a),
    // A pre-alert no hospital acknowledged in time: the dispatcher phones the hospital, until it acknowledges.
    'prealert.late': (a) => notePrealertLate(qc, a),
    'prealert.acknowledged': (a) => dropPrealertAlert(qc, a),
    // Hospitals as admins edit them or a hospital sets its diversion status (Manage Hospitals, destinations).
    'hospital.updated': (h) => {
      if (!deletedHospitals.has(h.id)) qc.setQueryData<HospitalDto[]>(hospitalsKey, (l) => putByName(l, h));
    },
    'hospital.deleted': ({ id }) => {
      deletedHospitals.add(id);
      qc.setQueryData<HospitalDto[]>(hospitalsKey, (l) => removeById(l, id));
    },
    'user.created': () => void qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
    'user.updated': () => void qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
    'user.deleted': () => void qc.invalidateQueries({ queryKey: queries.operators().queryKey }),
  };
  // Put on and taken off by name: each listener is typed by its event in `handlers`.
  const byName = socket as Socket;
  for (const [event, fn] of Object.entries(handlers)) byName.on(event, fn);

  /** The live lists asked for again: whatever is on its way from before now is asked for once more when it lands. */
  const refetchLive = () => {
    board.journal.mark();
    fleetJournal.mark();
    void qc.invalidateQueries({ queryKey: boardKey, exact: true });
    void qc.invalidateQueries({ queryKey: fleetKey, exact: true });
  };
  let connects = 0;
  let cancelRefetch = () => {};
  const stopWatching = watchConnection(socket, (state) => {
    if (state === 'live') {
      connects += 1;
      cancelRefetch();
      if (connects === 1) {
        refetchLive();
      } else {
        // Events were missed: history pages are stale by an unknown count, everything else
        // cached is stale too (refetched when next shown, not now), the live lists are asked for soon.
        history.noteUnknown();
        void qc.invalidateQueries({ predicate: (q) => !isLiveOrHistory(q.queryKey, boardKey, fleetKey) && !isPastReport(q.queryKey), refetchType: 'none' });
        cancelRefetch = delay(refetchLive, Math.floor(random() * RECONNECT_SPREAD_MS));
      }
    }
    onState(state);
  });

  return () => {
    cancelRefetch();
    reports.stop();
    stopWatching();
    for (const [event, fn] of Object.entries(handlers)) byName.off(event, fn);
    fleetJournal.stop();
  };
}

/** A report of a period wholly past: no missed event can change it. */
const isPastReport = (key: QueryKey) => key[0] === REPORTS_KEY[0] && reportRefreshMs(key) == null;

/** The board and fleet (refetched on connect) and history pages (noted as changed, never refetched by the live cache). */
function isLiveOrHistory(key: QueryKey, boardKey: QueryKey, fleetKey: QueryKey): boolean {
  const is = (k: QueryKey) => key.length === k.length && key.every((part, i) => part === k[i]);
  return is(boardKey) || is(fleetKey) || CASE_HISTORY_KEY.every((part, i) => key[i] === part);
}
