import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { type AssignmentDto, BOARD_ENDED_MAX, type CaseCounts, type CaseDetail, type CaseDto, type CaseStatus, type Priority } from '../api/contract';
import { mutations, settleWrite } from '../api/mutations';
import { CASE_COUNTS_KEY, queries } from '../api/queries';
import { compareBoard } from '../domain/callLife';
import { type BoardChange, caseBoardOf, onBoard, patchBoard } from './caseBoard';
import { historyChangesOf } from './historyChanges';

/** The pinned clock: every test's "now". */
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let seq = 0;
/** A call received `ageMin` minutes before NOW; ended ones ended `endedH` hours before NOW. */
function call(id: string, o: { status?: CaseStatus; priority?: Priority; ageMin?: number; endedH?: number; version?: number } = {}): CaseDto {
  const received = NOW - (o.ageMin ?? 10) * 60_000;
  const ended = o.endedH != null ? NOW - o.endedH * HOUR : null;
  return {
    id, version: o.version ?? 1, status: o.status ?? 'active', priority: o.priority ?? 2, description: id,
    call_received_at: iso(received), created_at: iso(received + (seq++ % 7)), updated_at: iso(ended ?? received), closed_at: ended == null ? null : iso(ended),
    assignment: null, ambulance_id: null,
  } as CaseDto;
}
const ctx = { nowMs: NOW, recentHours: 12 };
const ids = (list: readonly { id: string }[] | undefined) => (list ?? []).map((c) => c.id);

/** A seeded shuffle (no Math.random in tests). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = items.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('patchBoard (pure)', () => {
  const rows = [
    call('p1-waiting', { status: 'pending', priority: 1, ageMin: 3 }),
    call('p1-old', { priority: 1, ageMin: 30 }),
    call('p1-new', { priority: 1, ageMin: 5 }),
    call('p2-waiting-old', { status: 'pending', priority: 2, ageMin: 40 }),
    call('p2-waiting-new', { status: 'pending', priority: 2, ageMin: 2 }),
    call('p3', { priority: 3, ageMin: 1 }),
    call('p4', { priority: 4, ageMin: 90 }),
    call('resolved-new', { status: 'resolved', ageMin: 20, endedH: 0.1 }),
    call('closed-old', { status: 'closed', ageMin: 600, endedH: 9 }),
    call('twin-a', { priority: 3, ageMin: 1 }),
  ];

  it('inserts every call where the shared comparator puts it, whatever the order of arrival', () => {
    const expected = ids([...rows].sort(compareBoard));
    expect(expected.slice(0, 5)).toEqual(['p1-waiting', 'p1-old', 'p1-new', 'p2-waiting-old', 'p2-waiting-new']);
    expect(expected.slice(-2)).toEqual(['resolved-new', 'closed-old']);
    for (const seed of [1, 2, 3, 42, 1234]) {
      let list: CaseDto[] = [];
      for (const r of shuffled(rows, seed)) list = patchBoard(list, { type: 'put', row: r, created: true }, ctx).list;
      expect(ids(list)).toEqual(expected);
    }
  });

  it('moves a changed call to its new place and never goes back to an older version', () => {
    let list = [...rows].sort(compareBoard);
    list = patchBoard(list, { type: 'put', row: { ...rows[6], priority: 1, version: 2 } }, ctx).list;
    // Now a running P1 received 90 min ago: after the waiting P1, before the younger running ones.
    expect(ids(list).slice(0, 3)).toEqual(['p1-waiting', 'p4', 'p1-old']);
    const same = patchBoard(list, { type: 'put', row: rows[6] }, ctx);
    expect(same.list).toEqual(list);
    expect(same.delta).toEqual({ active: 0, pending: 0, total: 0 });
  });

  it('keeps ended calls for the window only: a call past it is not inserted, and leaves as the clock moves', () => {
    expect(onBoard(call('x', { status: 'closed', endedH: 11.9 }), NOW, 12)).toBe(true);
    expect(onBoard(call('x', { status: 'closed', endedH: 12.1 }), NOW, 12)).toBe(false);
    expect(onBoard(call('x', { status: 'active', ageMin: 60 * 24 * 30 }), NOW, 12)).toBe(true);
    const old = patchBoard([], { type: 'put', row: call('old', { status: 'closed', endedH: 13 }) }, ctx);
    expect(old.list).toEqual([]);
    expect(ids(old.left)).toEqual(['old']);
    const list = [call('open'), call('ending', { status: 'resolved', endedH: 11 })];
    const later = patchBoard(list, { type: 'location', loc: { id: 'none' } as never }, { ...ctx, nowMs: NOW + 2 * HOUR });
    expect(ids(later.list)).toEqual(['open']);
    expect(ids(later.left)).toEqual(['ending']);
    // A shorter window (BOARD_RECENT_HOURS) is honoured.
    expect(ids(patchBoard(list, { type: 'remove', id: 'none' }, { nowMs: NOW, recentHours: 1 }).list)).toEqual(['open']);
  });

  it('keeps no more than the latest BOARD_ENDED_MAX ended calls, as the server answers', () => {
    let list: CaseDto[] = [call('open')];
    // One more ended call than the board holds, each ended a minute after the one before.
    for (let i = 0; i <= BOARD_ENDED_MAX; i++) {
      list = patchBoard(list, { type: 'put', row: call(`ended-${i}`, { status: 'closed', endedH: (BOARD_ENDED_MAX + 1 - i) / 60 }), created: true }, ctx).list;
    }
    expect(list).toHaveLength(1 + BOARD_ENDED_MAX);
    expect(list[0].id).toBe('open');
    expect(list[1].id).toBe(`ended-${BOARD_ENDED_MAX}`);
    expect(ids(list)).not.toContain('ended-0');
  });

  it('moves the counts: +1 total on create, active/pending on a status change, none for an ended call, −1 on delete', () => {
    const d = (list: CaseDto[], change: BoardChange, replay = false) => patchBoard(list, change, { ...ctx, replay }).delta;
    const a = call('a', { status: 'pending' });
    expect(d([], { type: 'put', row: a, created: true })).toEqual({ active: 0, pending: 1, total: 1 });
    expect(d([a], { type: 'put', row: { ...a, status: 'active', version: 2 } })).toEqual({ active: 1, pending: -1, total: 0 });
    expect(d([{ ...a, status: 'active' }], { type: 'put', row: { ...a, status: 'closed', closed_at: iso(NOW), version: 3 } })).toEqual({ active: -1, pending: 0, total: 0 });
    // A call from history reopened: on the board again, no new case.
    expect(d([], { type: 'put', row: call('h', { status: 'active', ageMin: 60 * 24 * 40, version: 5 }) })).toEqual({ active: 1, pending: 0, total: 0 });
    expect(d([a], { type: 'remove', id: 'a' })).toEqual({ active: 0, pending: -1, total: -1 });
    // A call from history deleted: one case fewer; on a snapshot that no longer holds it, not counted twice.
    expect(d([a], { type: 'remove', id: 'history' })).toEqual({ active: 0, pending: 0, total: -1 });
    expect(d([a], { type: 'remove', id: 'history' }, true)).toEqual({ active: 0, pending: 0, total: 0 });
  });
});

describe('caseBoardOf (the one writer of the cached board)', () => {
  const boardKey = queries.cases().queryKey;
  let qc: QueryClient;

  function loaded(cases: CaseDto[], counts: CaseCounts) {
    qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    qc.setQueryData(boardKey, [...cases].sort(compareBoard));
    qc.setQueryData(CASE_COUNTS_KEY, counts);
    qc.setQueryData(queries.config().queryKey, { board_recent_hours: 12 } as never);
    return caseBoardOf(qc, { now: () => NOW });
  }
  const board = () => qc.getQueryData<CaseDto[]>(boardKey);
  const counts = () => qc.getQueryData<CaseCounts>(CASE_COUNTS_KEY);

  afterEach(() => {
    qc?.clear();
    vi.unstubAllGlobals();
  });

  it('patches board and counts, notes each call for history, and asks the server for nothing', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const w = loaded([call('a'), call('b', { status: 'pending' })], { active: 1, pending: 1, total: 500 });
    const historyKey = queries.caseHistory({}).queryKey;
    qc.setQueryData(historyKey, { cases: [call('old', { status: 'closed', endedH: 100 })], next_cursor: null, prev_cursor: null, total: 1, total_exact: true });
    const history = historyChangesOf(qc);
    w.put(call('c', { priority: 1 }), { created: true });
    w.put({ ...call('b', { status: 'active' }), version: 2 });
    w.put({ ...call('a', { status: 'resolved', endedH: 0 }), version: 2 });
    w.put({ ...call('old', { status: 'closed', endedH: 100 }), version: 3, description: 'edited' }); // history only
    expect(ids(board())).toEqual(['c', 'b', 'a']);
    expect(counts()).toEqual({ active: 2, pending: 0, total: 501 });
    w.remove('a');
    w.remove('a');
    w.put({ ...call('a'), version: 9 }); // a late event cannot bring a deleted call back
    expect(ids(board())).toEqual(['c', 'b']);
    expect(counts()).toEqual({ active: 2, pending: 0, total: 500 });
    expect(history.count()).toBe(4);
    expect(qc.getQueryState(historyKey)?.isInvalidated).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('forgets nothing that left the board: an older version of it cannot come back', () => {
    const w = loaded([call('x', { status: 'closed', endedH: 11.99 })], { active: 0, pending: 0, total: 1 });
    w.put({ ...call('x', { status: 'closed', endedH: 13 }), version: 3 }); // corrected end: past the window
    expect(board()).toEqual([]);
    w.put({ ...call('x', { status: 'active' }), version: 2 }); // a late event from before
    expect(board()).toEqual([]);
    w.put({ ...call('x', { status: 'active' }), version: 4 }); // reopened
    expect(ids(board())).toEqual(['x']);
    expect(counts()).toEqual({ active: 1, pending: 0, total: 1 });
  });

  it('sets a cached detail from the answer, and an answered assignment on the row and the detail', () => {
    const w = loaded([call('a')], { active: 1, pending: 0, total: 1 });
    const a1 = { id: 7, case_id: 'a', status: 'dispatched' } as AssignmentDto;
    qc.setQueryData<CaseDetail>(queries.caseDetail('a').queryKey, { case: { ...call('a'), assignment: a1 }, assignments: [a1] });
    w.put({ ...call('a'), version: 2, description: 'from the answer', assignment: a1 });
    expect(qc.getQueryData<CaseDetail>(queries.caseDetail('a').queryKey)!.case.description).toBe('from the answer');
    const onScene = { ...a1, status: 'on_scene' } as AssignmentDto;
    w.assignment('a', onScene);
    expect(board()![0].assignment).toEqual(onScene);
    expect(qc.getQueryData<CaseDetail>(queries.caseDetail('a').queryKey)!.assignments).toEqual([onScene]);
    w.remove('a');
    expect(qc.getQueryData(queries.caseDetail('a').queryKey)).toBeUndefined();
  });

  it('a write answer goes through the writer; a 409 refetches the board and the fleet, not history', () => {
    const w = loaded([], { active: 0, pending: 0, total: 3 });
    qc.setQueryData(queries.ambulances().queryKey, []);
    const historyKey = queries.caseHistory({}).queryKey;
    qc.setQueryData(historyKey, { cases: [], next_cursor: null, prev_cursor: null, total: 3, total_exact: true });
    const created = call('new', { status: 'pending', priority: 1 });
    settleWrite(qc, mutations.dispatchCase, { data: { case: created, caseId: 'new', locationLink: 'x' }, vars: { body: {} as never } });
    expect(ids(board())).toEqual(['new']);
    expect(counts()).toEqual({ active: 0, pending: 1, total: 4 });
    expect(qc.getQueryState(boardKey)?.isInvalidated).toBe(false);
    w.put(created, { created: true }); // its event, after the answer: nothing twice
    expect(counts()).toEqual({ active: 0, pending: 1, total: 4 });
    settleWrite(qc, mutations.updateCase, { error: new ApiError(409, 'taken') });
    expect(qc.getQueryState(boardKey)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(queries.ambulances().queryKey)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(historyKey)?.isInvalidated).toBe(false);
    // Another refusal is only an answer.
    qc.setQueryData(boardKey, board());
    settleWrite(qc, mutations.updateCase, { error: new ApiError(422, 'bad') });
    expect(qc.getQueryState(boardKey)?.isInvalidated).toBe(false);
  });
});
