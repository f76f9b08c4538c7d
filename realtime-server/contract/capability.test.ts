import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { AssignmentStatus } from './callLife';
import { DEFAULT_CLOCK_STOPS, DEFAULT_PRIORITY_NEEDS, canTransport, meetsNeed, primaryAssignment, unitsInOrder } from './capability';

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

describe('PRIORITY_NEEDS and PRIORITY_CLOCK_STOP', () => {
  it('default to the NHS practice and read priority=value lists in any order', () => {
    const c = loadConfig({});
    expect(c.priorityNeeds).toEqual(DEFAULT_PRIORITY_NEEDS);
    expect(c.clockStops).toEqual(DEFAULT_CLOCK_STOPS);
    expect(loadConfig({ PRIORITY_NEEDS: '4=bls, 3=als,2=cct,1=cct' }).priorityNeeds).toEqual({ 1: 'cct', 2: 'cct', 3: 'als', 4: 'bls' });
  });

  it('refuse a value outside the list or a missing priority, naming the variable', () => {
    expect(() => loadConfig({ PRIORITY_NEEDS: '1=responder,2=als,3=bls,4=bls' })).toThrow('Invalid environment: PRIORITY_NEEDS: "1=responder" is not priority=value with a value from bls, als, cct');
    expect(() => loadConfig({ PRIORITY_CLOCK_STOP: '1=first,2=transport' })).toThrow('Invalid environment: PRIORITY_CLOCK_STOP: give a value for every priority (missing 3, 4)');
  });
});
