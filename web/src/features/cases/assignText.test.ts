import { describe, expect, it } from 'vitest';
import type { DivertibleUnit } from '../../api/contract';
import { dispatchedText, divertDetail, freeUnitDetail, takeQuestion } from './assignText';

const unit = { ambulance_id: 4, license_plate: 'TS09 EA 1004', distance_m: 2300, eta_s: 340, position_age_s: 5, stale: false, capability: 'als' as const, can_transport: true, meets_need: true };
const divertible: DivertibleUnit = { ...unit, case_id: 'c4', case_priority: 4, unit_status: 'en_route' };

describe('the words of a waiting call\'s Assign', () => {
  it('gives a free unit\'s distance and estimate, or says the call has no place yet', () => {
    expect(freeUnitDetail(unit, true)).toBe('2.3 km, ~6 min');
    expect(freeUnitDetail({ ...unit, stale: true }, true)).toBe('2.3 km, ~6 min, position old');
    expect(freeUnitDetail(unit, false)).toBe('no place for the call yet');
    expect(freeUnitDetail({ ...unit, distance_m: null, eta_s: null, position_age_s: null, stale: true }, true)).toBe('no position known');
  });

  it('says which call a divertible unit is on', () => {
    expect(divertDetail(divertible, true)).toBe('On a P4 call, en route · 2.3 km, ~6 min');
    expect(divertDetail({ ...divertible, unit_status: 'dispatched', case_priority: 3 }, false)).toBe('On a P3 call, dispatched · no place for the call yet');
  });

  it('asks before a unit is taken, saying which call goes back to the queue', () => {
    expect(takeQuestion(divertible, 'Ann Lee', { priority: 1, name: 'Raj Kumar' })).toEqual({
      title: 'Take TS09 EA 1004 from the P4 call?',
      text: 'The P4 call of Ann Lee goes back to the queue, waiting for an ambulance; TS09 EA 1004 goes to the P1 call of Raj Kumar.',
      confirm: 'Take TS09 EA 1004',
    });
    expect(takeQuestion(divertible, null, { priority: 2, name: 'X' }).text).toMatch(/^The P4 call goes back to the queue/);
  });

  it('says what was dispatched, and which call waits again', () => {
    expect(dispatchedText('TS09 EA 1004', { priority: 1, name: 'Raj' }, null)).toBe('TS09 EA 1004 dispatched to the P1 call of Raj');
    expect(dispatchedText('TS09 EA 1004', { priority: 1, name: 'Raj' }, { priority: 4, name: 'Ann' }))
      .toBe('TS09 EA 1004 dispatched to the P1 call of Raj; the P4 call of Ann is waiting again');
  });
});
