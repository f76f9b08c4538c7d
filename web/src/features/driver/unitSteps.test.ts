import { describe, expect, it } from 'vitest';
import type { AssignmentDto } from '../../api/contract';
import { expectedStatus, furthest, isAhead, stepChoices } from './unitSteps';

const press = (status: 'en_route' | 'on_scene' | 'transporting' | 'at_hospital' | 'cleared') => ({ status, at: '2026-11-24T10:00:00.000Z' });
const assignment = (id: number, status: AssignmentDto['status']): AssignmentDto => ({
  id, case_id: 'c', ambulance_id: 1, license_plate: 'X', capability: 'als', can_transport: true, status, dispatched_at: '2026-11-24T09:00:00.000Z',
  en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, destination: null, destination_eta_s: null,
});

describe('the crew\'s next step', () => {
  it('offers the steps in order, each the one after the last', () => {
    expect(stepChoices('dispatched').next).toBe('en_route');
    expect(stepChoices('en_route').next).toBe('on_scene');
    expect(stepChoices('on_scene').next).toBe('transporting');
    expect(stepChoices('transporting').next).toBe('at_hospital');
    expect(stepChoices('at_hospital').next).toBe('handover');
    expect(stepChoices('handover').next).toBe('cleared');
  });

  it('offers clear from the scene (no transport) and at hospital (handover unrecorded), and on scene from dispatch, nothing else', () => {
    expect(stepChoices('on_scene').skips).toEqual(['cleared']);
    expect(stepChoices('dispatched').skips).toEqual(['on_scene']);
    expect(stepChoices('en_route').skips).toEqual([]);
    expect(stepChoices('transporting').skips).toEqual([]);
    // The handover may go unrecorded (the hospital pressed nothing): clear straight from at hospital.
    expect(stepChoices('at_hospital').skips).toEqual(['cleared']);
    expect(stepChoices('handover').skips).toEqual([]);
  });

  it('offers nothing once the assignment is over or unknown', () => {
    for (const s of ['cleared', 'cancelled', null, undefined] as const) expect(stepChoices(s)).toEqual({ next: null, skips: [] });
  });

  it('shows the server\'s status moved on by the presses still waiting, ignoring one that goes back', () => {
    expect(expectedStatus('dispatched', [])).toBe('dispatched');
    expect(expectedStatus('dispatched', [press('en_route'), press('on_scene')])).toBe('on_scene');
    expect(expectedStatus('on_scene', [press('en_route')])).toBe('on_scene');
    expect(expectedStatus('on_scene', [press('cleared'), press('transporting')])).toBe('cleared');
    expect(expectedStatus('cancelled', [press('on_scene')])).toBe('cancelled');
    expect(isAhead(null, 'en_route')).toBe(true);
  });

  it('keeps the newer view of the assignment: a later assignment, else the further step', () => {
    const a = assignment(1, 'en_route');
    const b = assignment(1, 'on_scene');
    expect(furthest(a, b)).toBe(b);
    expect(furthest(b, a)).toBe(b);
    const c = assignment(2, 'dispatched');
    expect(furthest(b, c)).toBe(c);
    expect(furthest(c, b)).toBe(c);
    expect(furthest(null, a)).toBe(a);
    expect(furthest(a, undefined)).toBe(a);
    expect(furthest(assignment(1, 'cleared'), assignment(1, 'cancelled'))?.status).toBe('cancelled');
  });
});
