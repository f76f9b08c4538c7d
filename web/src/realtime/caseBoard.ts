import type { QueryClient } from '@tanstack/react-query';
import { type AssignmentDto, BOARD_ENDED_MAX, BOARD_RECENT_HOURS_DEFAULT, type CaseCounts, type CaseDetail, type CaseDto, type CaseLocationEvent } from '../api/contract';
import { CASE_COUNTS_KEY, queries } from '../api/queries';
import { serverNow } from '../api/serverClock';
import { compareBoard, isOpenCall } from '../domain/callLife';
import { patchCaseLocation } from './cachePatches';
import { type FetchJournal, fetchJournal } from './fetchJournal';
import { historyChangesOf } from './historyChanges';

/**
 * The live board in the browser: the one writer of the cached board (queries.cases()) and its
 * counts (CASE_COUNTS_KEY), fed by the socket's case events (liveCache.ts) and by the answers of
 * this tab's own writes (mutations.ts). A call is on the board while it is open or ended within
 * BOARD_RECENT_HOURS; it is inserted where the server would put it (compareBoard), so screens
 * need not sort. Every change costs work in proportion to the board, never to history: history
 * pages are not touched, the change is only noted for them (historyChanges: "N new or changed calls").
 */

/** One change of a call, from an event or a write's answer. */
export type BoardChange =
  | { type: 'put'; row: CaseDto; created?: boolean }
  | { type: 'remove'; id: string }
  | { type: 'location'; loc: CaseLocationEvent };

export interface BoardContext {
  nowMs: number;
  recentHours: number;
  /**
   * Applied again on a fetched snapshot: a deletion of a call the snapshot does not hold may
   * already be in the snapshot's counts, so it is not counted a second time.
   */
  replay?: boolean;
}

export type CountsDelta = CaseCounts;
const NO_DELTA: CountsDelta = { active: 0, pending: 0, total: 0 };

/**
 * Whether a call belongs on the board at `nowMs`, as the server decides it: open, or ended
 * (its closed_at, set by every ending) within the window.
 */
export function onBoard(c: Pick<CaseDto, 'status' | 'closed_at'>, nowMs: number, recentHours: number): boolean {
  return isOpenCall(c) || (c.closed_at != null && Date.parse(c.closed_at) >= nowMs - recentHours * 3600_000);
}

/** Index at which `row` goes in a list already in board order (binary search). */
function insertionIndex(list: readonly CaseDto[], row: CaseDto): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareBoard(list[mid], row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A call's part in the open counts. */
function statusDelta(c: CaseDto | undefined, sign: 1 | -1): CountsDelta {
  return { active: c?.status === 'active' ? sign : 0, pending: c?.status === 'pending' ? sign : 0, total: 0 };
}
const add = (a: CountsDelta, b: CountsDelta): CountsDelta => ({ active: a.active + b.active, pending: a.pending + b.pending, total: a.total + b.total });

/**
 * One change applied to the board (pure): the board after it, in board order and without the
 * ended calls past the window, what left it, and how the counts move. A row older than (or
 * as old as) the one held changes nothing.
 */
export function patchBoard(list: readonly CaseDto[], change: BoardChange, ctx: BoardContext): { list: CaseDto[]; delta: CountsDelta; left: CaseDto[] } {
  const left: CaseDto[] = [];
  const kept: CaseDto[] = [];
  // The window moves with the clock: whatever ended too long ago leaves at the next change.
  for (const c of list) (onBoard(c, ctx.nowMs, ctx.recentHours) ? kept : left).push(c);
  const id = change.type === 'put' ? change.row.id : change.type === 'remove' ? change.id : change.loc.id;
  const i = kept.findIndex((c) => c.id === id);
  const held = i === -1 ? undefined : kept[i];

  if (change.type === 'location') {
    return { list: held ? patchCaseLocation(kept, change.loc)! : kept, delta: NO_DELTA, left };
  }
  if (change.type === 'remove') {
    if (held) kept.splice(i, 1);
    const total = held || !ctx.replay ? -1 : 0;
    return { list: kept, delta: add(statusDelta(held, -1), { active: 0, pending: 0, total }), left };
  }
  const { row } = change;
  if (held && held.version >= row.version) return { list: kept, delta: NO_DELTA, left };
  if (held) kept.splice(i, 1);
  let delta = add(statusDelta(held, -1), { active: 0, pending: 0, total: change.created && !held ? 1 : 0 });
  if (onBoard(row, ctx.nowMs, ctx.recentHours)) {
    kept.splice(insertionIndex(kept, row), 0, row);
    delta = add(delta, statusDelta(row, 1));
  } else {
    left.push(row);
  }
  // As the server: no more than the latest BOARD_ENDED_MAX ended calls, which board order puts last.
  const firstEnded = kept.findIndex((c) => !isOpenCall(c));
  if (firstEnded !== -1 && kept.length - firstEnded > BOARD_ENDED_MAX) left.push(...kept.splice(firstEnded + BOARD_ENDED_MAX));
  return { list: kept, delta, left };
}

export interface CaseBoardWriter {
  /** A call as it now is (case.created with `created`, case.updated, a write's answer). */
  put: (row: CaseDto, opts?: { created?: boolean }) => void;
  /** A deleted call. */
  remove: (id: string) => void;
  /** The patient shared a fix. */
  location: (loc: CaseLocationEvent) => void;
  /** An assignment as a write answered it (unit status, time correction): the call's row and its detail show it at once. */
  assignment: (caseId: string, a: AssignmentDto) => void;
  /** The journal of the board's fetches (liveCache marks it on each connect). */
  journal: FetchJournal<BoardChange>;
}

/** Past this many, the oldest remembered deletions and departures are forgotten (memory stays bounded). */
const MAX_REMEMBERED = 5000;

function remember<K, V>(map: Map<K, V>, key: K, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as K);
}

export interface CaseBoardOptions {
  /** The server's now (tests pin it). */
  now?: () => number;
}

const writers = new WeakMap<QueryClient, CaseBoardWriter>();

/** The tab's board writer (created on first use, one per QueryClient). */
export function caseBoardOf(qc: QueryClient, options: CaseBoardOptions = {}): CaseBoardWriter {
  let w = writers.get(qc);
  if (!w) {
    w = createCaseBoard(qc, options);
    writers.set(qc, w);
  }
  return w;
}

function createCaseBoard(qc: QueryClient, options: CaseBoardOptions): CaseBoardWriter {
  const now = options.now ?? serverNow;
  const boardKey = queries.cases().queryKey;
  const history = historyChangesOf(qc);
  /** Deleted ids: a late event cannot bring one back. */
  const deleted = new Map<string, true>();
  /** The last version of calls that left the board: a late event cannot bring an older one back. */
  const gone = new Map<string, number>();

  const context = (replay = false): BoardContext => ({
    nowMs: now(),
    recentHours: qc.getQueryData(queries.config().queryKey)?.board_recent_hours ?? BOARD_RECENT_HOURS_DEFAULT,
    replay,
  });

  /** Applies changes to the cached board and counts; answers whether the board held the list (it may not be loaded yet). */
  function write(changes: BoardChange[], replay: boolean) {
    const ctx = context(replay);
    let delta = NO_DELTA;
    qc.setQueryData<CaseDto[]>(boardKey, (list) => {
      if (!list) return list;
      let next = list;
      for (const change of changes) {
        const r = patchBoard(next, change, ctx);
        next = r.list;
        delta = add(delta, r.delta);
        for (const c of r.left) remember(gone, c.id, c.version);
      }
      return next;
    });
    if (delta.active || delta.pending || delta.total) {
      qc.setQueryData<CaseCounts>(CASE_COUNTS_KEY, (c) => c && {
        active: Math.max(0, c.active + delta.active),
        pending: Math.max(0, c.pending + delta.pending),
        total: Math.max(0, c.total + delta.total),
      });
    }
  }

  const journal = fetchJournal<BoardChange>(qc, boardKey, (entries) => write(entries, true));

  function apply(change: BoardChange, id: string) {
    write([change], false);
    journal.record(change);
    history.note(id);
  }

  /** The cached detail of a call (GET /api/cases/{id}), when a screen holds it. */
  const detailKey = (id: string) => queries.caseDetail(id).queryKey;

  return {
    put: (row, opts = {}) => {
      if (deleted.has(row.id)) return;
      const held = qc.getQueryData<CaseDto[]>(boardKey)?.find((c) => c.id === row.id);
      if ((held?.version ?? gone.get(row.id) ?? -1) >= row.version) return;
      apply({ type: 'put', row, created: opts.created }, row.id);
      qc.setQueryData<CaseDetail>(detailKey(row.id), (d) => {
        if (!d || d.case.version >= row.version) return d;
        // A new assignment is not in the detail's list: that one call is asked for again.
        if (row.assignment && !d.assignments.some((a) => a.id === row.assignment!.id)) void qc.invalidateQueries({ queryKey: detailKey(row.id), exact: true });
        return { ...d, case: row, assignments: d.assignments.map((a) => (a.id === row.assignment?.id ? row.assignment : a)) };
      });
    },
    remove: (id) => {
      if (deleted.has(id)) return;
      remember(deleted, id, true);
      gone.delete(id);
      apply({ type: 'remove', id }, id);
      qc.removeQueries({ queryKey: detailKey(id), exact: true });
    },
    location: (loc) => {
      if (deleted.has(loc.id)) return;
      apply({ type: 'location', loc }, loc.id);
      qc.setQueryData<CaseDetail>(detailKey(loc.id), (d) => d && { ...d, case: patchCaseLocation([d.case], loc)![0] });
    },
    assignment: (caseId, a) => {
      // The call's own version moves with the write; the event that follows carries it. Until
      // then its row shows the answered assignment (same version: the event still replaces it).
      qc.setQueryData<CaseDto[]>(boardKey, (list) => list?.map((c) => (c.id === caseId && c.assignment?.id === a.id ? { ...c, assignment: a } : c)));
      qc.setQueryData<CaseDetail>(detailKey(caseId), (d) => d && { ...d, assignments: d.assignments.map((x) => (x.id === a.id ? a : x)) });
      history.note(caseId);
    },
    journal,
  };
}
