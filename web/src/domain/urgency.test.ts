import { describe, expect, it } from 'vitest';
import type { AssignmentDto, CaseDto } from '../api/contract';
import { boardOrder, isPastTarget, urgentBoardOrder } from './callLife';

// Issue 25 item 5: the board's red "Past target" (the response clock past its priority's target)
// as one rule, and a P1 nobody has reached in time first on the board.

const T0 = Date.parse('2026-11-24T10:00:00Z');
const ago = (minutes: number) => new Date(T0 - minutes * 60_000).toISOString();
const onScene = (at: string) => ({ status: 'on_scene', on_scene_at: at, can_transport: true }) as AssignmentDto;
/** A call whose units are its one `assignment` (as the server lists it in `assignments` too). */
const call = (id: string, over: Partial<CaseDto>) =>
  ({ id, status: 'active', priority: 1, call_received_at: ago(1), assignment: null, assignments: over.assignment ? [over.assignment] : [], ...over }) as CaseDto;

describe('past target', () => {
  it('is an open call whose response clock still runs past its priority\'s target (P1 15 min, P2 40 min by default)', () => {
    expect(isPastTarget(call('a', { call_received_at: ago(16) }), undefined, T0)).toBe(true);
    expect(isPastTarget(call('a', { call_received_at: ago(14) }), undefined, T0)).toBe(false);
    expect(isPastTarget(call('a', { priority: 2, call_received_at: ago(16) }), undefined, T0)).toBe(false);
    expect(isPastTarget(call('a', { priority: 2, call_received_at: ago(41) }), undefined, T0)).toBe(true);
    // A waiting call counts: nobody is on the way at all.
    expect(isPastTarget(call('a', { status: 'pending', call_received_at: ago(20) }), undefined, T0)).toBe(true);
  });

  it('leaves out a call whose crew is on scene (its clock stopped) and an ended call', () => {
    expect(isPastTarget(call('a', { call_received_at: ago(50), assignment: onScene(ago(10)) }), undefined, T0)).toBe(false);
    expect(isPastTarget(call('a', { status: 'closed', call_received_at: ago(50) }), undefined, T0)).toBe(false);
  });

  it('reads the targets of the server\'s configuration', () => {
    const config = { priorities: [{ priority: 1 as const, label: 'Life-threatening', target_s: 300, mean_target_s: null, queue_alert_s: 60 }] };
    expect(isPastTarget(call('a', { call_received_at: ago(6) }), config, T0)).toBe(true);
  });
});

describe('the board a dispatcher reads', () => {
  it('puts a P1 past target above the waiting P1s, and keeps priority first', () => {
    const rows = [
      call('p1-waiting-a', { status: 'pending', call_received_at: ago(3) }),
      call('p1-waiting-b', { status: 'pending', call_received_at: ago(2) }),
      call('p1-late', { call_received_at: ago(50) }),
      call('p1-running', { call_received_at: ago(5) }),
      call('p2-late', { priority: 2, call_received_at: ago(55) }),
      call('p1-arrived-late', { call_received_at: ago(59), assignment: onScene(ago(30)) }),
    ];
    // Without a clock, the server's order: the waiting first within a priority.
    expect(boardOrder(rows).map((c) => c.id)).toEqual(['p1-waiting-a', 'p1-waiting-b', 'p1-arrived-late', 'p1-late', 'p1-running', 'p2-late']);
    expect(urgentBoardOrder(rows, undefined, T0).map((c) => c.id)).toEqual(['p1-late', 'p1-waiting-a', 'p1-waiting-b', 'p1-arrived-late', 'p1-running', 'p2-late']);
  });

  it('among several past target, the board\'s own order: the waiting first, then the oldest', () => {
    const rows = [
      call('late-running', { call_received_at: ago(40) }),
      call('late-waiting', { status: 'pending', call_received_at: ago(30) }),
      call('later', { call_received_at: ago(45) }),
    ];
    expect(urgentBoardOrder(rows, undefined, T0).map((c) => c.id)).toEqual(['late-waiting', 'later', 'late-running']);
  });

  it('is the board order until a call goes past its target', () => {
    const rows = [call('running', { call_received_at: ago(10) }), call('waiting', { status: 'pending', call_received_at: ago(1) })];
    expect(urgentBoardOrder(rows, undefined, T0).map((c) => c.id)).toEqual(['waiting', 'running']);
    expect(urgentBoardOrder(rows, undefined, T0 + 6 * 60_000).map((c) => c.id)).toEqual(['running', 'waiting']);
  });
});
