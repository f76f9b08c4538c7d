import { describe, expect, it } from 'vitest';
import type { AssignmentDto, CaseSuggestion } from '../../api/contract';
import { caseDto } from '../../testing/dtos';
import {
  addButtonText, addedText, callUnits, canStandDown, endedUnitText, needText, planReasonText, planSelection, standDownQuestion,
  standDownReasonError, unitChoiceDetail, unitErrorText, unitsHeading,
} from './callUnits';

const unit = (over: Partial<AssignmentDto> = {}): AssignmentDto => ({
  id: 1, case_id: 'c1', ambulance_id: 1, license_plate: 'TS09 EA 1001', capability: 'als', can_transport: true, status: 'en_route',
  dispatched_at: '2026-01-01T00:01:00Z', en_route_at: '2026-01-01T00:02:00Z', on_scene_at: null, transporting_at: null, at_hospital_at: null,
  handover_at: null, cleared_at: null, cancelled_at: null, destination: null, destination_eta_s: null, ...over,
});
const car = unit({ id: 2, ambulance_id: 8, license_plate: 'TS09 EA 1008', capability: 'responder', can_transport: false, status: 'dispatched' });
const gone = unit({ id: 3, ambulance_id: 4, license_plate: 'TS09 EA 1004', capability: 'bls', status: 'cancelled', cancelled_at: '2026-01-01T00:03:00Z' });

describe('a call\'s units on its card', () => {
  it('lists the open units in the server\'s order, then those that left the call', () => {
    const c = caseDto({ status: 'active', assignment: unit(), assignments: [unit(), car, gone] });
    expect(callUnits(c)).toEqual({ open: [unit(), car], ended: [gone] });
  });
  it('shows a waiting call only the units that left it, and an older answer its primary unit', () => {
    expect(callUnits(caseDto({ status: 'pending', assignments: [gone] }))).toEqual({ open: [], ended: [gone] });
    expect(callUnits(caseDto({ status: 'active', assignment: unit(), assignments: undefined as unknown as AssignmentDto[] })).open).toEqual([unit()]);
    expect(callUnits(caseDto({ status: 'pending' }))).toEqual({ open: [], ended: [] });
  });
  it('stands a unit down only before it reaches the scene', () => {
    expect(canStandDown(unit({ status: 'dispatched' }))).toBe(true);
    expect(canStandDown(unit({ status: 'en_route' }))).toBe(true);
    for (const status of ['on_scene', 'transporting', 'at_hospital', 'cleared', 'cancelled'] as const) expect(canStandDown(unit({ status }))).toBe(false);
    expect(canStandDown(unit({ ambulance_id: null }))).toBe(false);
  });
  it('words a unit that left the call and the heading', () => {
    expect(endedUnitText(gone)).toBe('TS09 EA 1004 · BLS · Cancelled');
    expect(endedUnitText({ ...car, status: 'cleared' })).toBe('TS09 EA 1008 · Car — cannot convey · Cleared');
    expect(unitsHeading(1)).toBe('1 unit on this call');
    expect(unitsHeading(2)).toBe('2 units on this call');
  });
});

describe('standing a unit down', () => {
  it('asks, and says when the call goes back to the queue', () => {
    expect(standDownQuestion(car, 1)).toEqual({
      title: 'Stand down TS09 EA 1008?',
      text: 'TS09 EA 1008 leaves this call and is free for the next one. The other units stay on the call.',
      confirm: 'Stand down',
    });
    expect(standDownQuestion(car, 0).text).toMatch(/No unit is left on the call: it waits for an ambulance again\.$/);
  });
  it('needs a reason of at most 500 characters', () => {
    expect(standDownReasonError('  ')).toBe('Say why the unit is stood down');
    expect(standDownReasonError('x'.repeat(501))).toBe('At most 500 characters');
    expect(standDownReasonError(' First crew is enough ')).toBeNull();
  });
});

describe('the Add unit dialog', () => {
  const offered = (id: number, over: Partial<CaseSuggestion> = {}): CaseSuggestion => ({
    ambulance_id: id, license_plate: `TS09 EA 100${id}`, distance_m: 1200, eta_s: 200, position_age_s: 5, stale: false,
    capability: 'als', can_transport: true, meets_need: true, ...over,
  });
  it('ticks the plan\'s units that are still offered, in the plan\'s order', () => {
    expect(planSelection({ send: [8, 1] }, [offered(1), offered(8)])).toEqual([8, 1]);
    expect(planSelection({ send: [8, 1] }, [offered(1)])).toEqual([1]);
    expect(planSelection(null, [offered(1)])).toEqual([]);
  });
  it('says each unit\'s need and estimate, and the plan\'s reason', () => {
    expect(unitChoiceDetail(offered(1), true)).toBe('Meets the need · 1.2 km, ~4 min');
    expect(unitChoiceDetail(offered(8, { meets_need: false, capability: 'responder', can_transport: false }), false)).toBe('Below the need · no place for the call yet');
    expect(needText(1, 'als')).toBe('P1 needs ALS or better');
    expect(planReasonText({ reason: 'car TS09 EA 1008, ~2 min; ambulance TS09 EA 1001, ~9 min: send both' }))
      .toBe('Suggested: car TS09 EA 1008, ~2 min; ambulance TS09 EA 1001, ~9 min: send both');
  });
  it('words the button, the toast and a refusal', () => {
    expect(addButtonText(0)).toBe('Add unit');
    expect(addButtonText(1)).toBe('Add unit');
    expect(addButtonText(2)).toBe('Add 2 units');
    expect(addedText(['TS09 EA 1008'], { priority: 1, name: 'Ravi' })).toBe('TS09 EA 1008 added to the P1 call of Ravi');
    expect(addedText(['A', 'B', 'C'], { priority: 2, name: 'Ravi' })).toBe('A, B and C added to the P2 call of Ravi');
    expect(unitErrorText('TS09 EA 1002', 'Ambulance TS09 EA 1002 is not available; choose another ambulance'))
      .toBe('TS09 EA 1002: Ambulance TS09 EA 1002 is not available; choose another ambulance');
    expect(unitErrorText('TS09 EA 1002', undefined)).toBe('TS09 EA 1002: Could not add the unit');
  });
});
