import { describe, expect, it } from 'vitest';
import type { AssignmentStatus } from './callLife';
import { canTransport, meetsNeed, primaryAssignment, responseClockStoppedAt, unitsInOrder } from './capability';

const T = (m: number) => `2026-11-28T10:${String(m).padStart(2, '0')}:00.000Z`;
const unit = (id: number, status: AssignmentStatus, dispatchedMin: number, transported = false) =>
  ({ id, status, dispatched_at: T(dispatchedMin), transporting_at: transported ? T(dispatchedMin + 10) : null });

describe('capability', () => {
  it('only a responder cannot convey; a need is met at its level or above (bls < als < cct)', () => {
    expect(['als', 'bls', 'cct', 'responder'].map(canTransport)).toEqual([true, true, true, false]);
    expect(['bls', 'als', 'cct', 'responder'].map((c) => meetsNeed(c, 'als'))).toEqual([false, true, true, false]);
    expect(['bls', 'als', 'cct', 'responder'].map((c) => meetsNeed(c, 'bls'))).toEqual([true, true, true, false]);
    expect(meetsNeed('cct', 'cct')).toBe(true);
    expect(meetsNeed('als', 'cct')).toBe(false);
  });
});

describe('the primary unit', () => {
  it('is the open one conveying, else the first dispatched still open', () => {
    expect(primaryAssignment([unit(1, 'on_scene', 0), unit(2, 'transporting', 2, true)])?.id).toBe(2);
    expect(primaryAssignment([unit(3, 'en_route', 5), unit(1, 'dispatched', 1), unit(2, 'cancelled', 0)])?.id).toBe(1);
  });

  it('with none open: the last that conveyed, else the last of all; none for a call never sent a unit', () => {
    expect(primaryAssignment([unit(1, 'cleared', 0, true), unit(2, 'cleared', 1)])?.id).toBe(1);
    expect(primaryAssignment([unit(1, 'cancelled', 0), unit(2, 'cleared', 1)])?.id).toBe(2);
    expect(primaryAssignment([])).toBeNull();
  });

  it('a card lists open units first, each group in dispatch order', () => {
    expect(unitsInOrder([unit(1, 'cleared', 0), unit(3, 'en_route', 4), unit(2, 'dispatched', 2)]).map((u) => u.id)).toEqual([2, 3, 1]);
  });
});

describe('the live response clock (responseClockStoppedAt)', () => {
  const car = (on: number | null, status: AssignmentStatus = 'on_scene') => ({ status, on_scene_at: on == null ? null : T(on), can_transport: false });
  const amb = (on: number | null, status: AssignmentStatus = 'on_scene') => ({ status, on_scene_at: on == null ? null : T(on), can_transport: true });

  it('P1 stops at the first unit on scene, a car included', () => {
    expect(responseClockStoppedAt({ priority: 1, assignments: [car(5), amb(null, 'en_route')] })).toBe(T(5));
  });

  it('P2 runs on past a car until a unit able to convey arrives', () => {
    expect(responseClockStoppedAt({ priority: 2, assignments: [car(5), amb(null, 'en_route')] })).toBeNull();
    expect(responseClockStoppedAt({ priority: 2, assignments: [car(5), amb(9)] })).toBe(T(9));
  });

  it('a call nobody could convey from, over: the first arrival; the clock stop is configurable', () => {
    expect(responseClockStoppedAt({ priority: 2, assignments: [car(5, 'cleared'), amb(null, 'cancelled')] })).toBe(T(5));
    expect(responseClockStoppedAt({ priority: 2, assignments: [car(5), amb(null, 'en_route')] }, { 1: 'first', 2: 'first', 3: 'first', 4: 'first' })).toBe(T(5));
    expect(responseClockStoppedAt({ priority: 3, assignments: [] })).toBeNull();
  });
});
