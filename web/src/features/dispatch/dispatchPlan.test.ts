import { describe, expect, it } from 'vitest';
import type { DispatchPlan, DispatchSuggestion } from '../../api/contract';
import { ambulanceDto } from '../../testing/dtos';
import { alsoSendText, choiceDetail, planFirst, planPartner, plannedAmbulance } from './dispatchPlan';

const carUnit = { ambulance_id: 8, license_plate: 'TS09 EA 1008', capability: 'responder' as const, can_transport: false, meets_need: false, stale: false, eta_s: 110 };
const ambUnit = { ambulance_id: 1, license_plate: 'TS09 EA 1001', capability: 'als' as const, can_transport: true, meets_need: true, stale: false, eta_s: 530 };
const both: DispatchPlan = { priority: 1, need: 'als', first: carUnit, transport: ambUnit, send: [8, 1], reason: 'car TS09 EA 1008, ~2 min; ambulance TS09 EA 1001, ~9 min: send both' };
const one: DispatchPlan = { priority: 3, need: 'bls', first: ambUnit, transport: null, send: [1], reason: 'ALS TS09 EA 1001 9 min: meets BLS' };
const fleet = [ambulanceDto({ id: 1, license_plate: 'TS09 EA 1001' }), ambulanceDto({ id: 8, license_plate: 'TS09 EA 1008', capability: 'responder', can_transport: false }), ambulanceDto({ id: 2 })];
const suggestion = (id: number): DispatchSuggestion => ({ ambulance_id: id, license_plate: `P${id}`, distance_m: 100, eta_s: 60, position_age_s: 1, stale: false, capability: 'als', can_transport: true, meets_need: true });
const ranked = [{ ambulance: fleet[2], suggestion: suggestion(2) }, { ambulance: fleet[0], suggestion: suggestion(1) }];

describe('the New Case form and the plan', () => {
  it('preselects the plan\'s first unit, else the quickest, and never overrides a pick', () => {
    expect(plannedAmbulance('', both, ranked, fleet)).toBe('8');
    expect(plannedAmbulance('', null, ranked, fleet)).toBe('2');
    expect(plannedAmbulance('2', both, ranked, fleet)).toBe('2');
    // The plan's first was taken meanwhile: the quickest still free.
    expect(plannedAmbulance('', both, ranked, fleet.filter((a) => a.id !== 8))).toBe('2');
  });
  it('lists the plan\'s units first, the rest in the server\'s order', () => {
    const all = [...ranked, { ambulance: fleet[1], suggestion: suggestion(8) }];
    expect(planFirst(all, both).map((r) => r.ambulance.id)).toEqual([8, 1, 2]);
    expect(planFirst(all, one).map((r) => r.ambulance.id)).toEqual([1, 2, 8]);
    expect(planFirst(all, null).map((r) => r.ambulance.id)).toEqual([2, 1, 8]);
  });
  it('offers the plan\'s other unit while the form holds one of the two and the other is free', () => {
    expect(planPartner(both, '8', fleet)).toEqual(ambUnit);
    expect(planPartner(both, '1', fleet)).toEqual(carUnit);
    expect(planPartner(both, '2', fleet)).toBeNull();
    expect(planPartner(both, '', fleet)).toBeNull();
    expect(planPartner(both, '8', fleet.filter((a) => a.id !== 1))).toBeNull();
    expect(planPartner(one, '1', fleet)).toBeNull();
    expect(planPartner(null, '1', fleet)).toBeNull();
  });
  it('words the second unit and each unit\'s capability', () => {
    expect(alsoSendText(ambUnit)).toBe('Also send TS09 EA 1001 · ALS · ~9 min');
    expect(alsoSendText({ ...carUnit, eta_s: null })).toBe('Also send TS09 EA 1008 · Car — cannot convey');
    expect(choiceDetail(fleet[1])).toBe('Car — cannot convey');
    expect(choiceDetail({ capability: 'bls', location: { placeName: 'Abids, Hyderabad' } })).toBe('BLS · Abids, Hyderabad');
  });
});
