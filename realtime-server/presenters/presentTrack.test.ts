import { describe, expect, it } from 'vitest';
import type { AmbulanceRow, CaseRow } from '../../db/repositories/types';
import type { CaseDto } from '../contract';
import { presentTrack, presentTrackUpdate } from './presentTrack';

const etaModel = { road_factor: 1.3, speed_kmh: 30 };

const ambulance = { id: 5, license_plate: 'TS09 EA 1005', latitude: null, longitude: null, position_at: null } as AmbulanceRow;
const kase = (assignedTo: number) => ({
  id: 'c1', status: 'active', patient_name: 'Meena Rao', description: 'Heart Attack', latitude: null, longitude: null, location_at: null,
  priority: 1, assignment_id: 9,
  units: JSON.stringify([{
    id: 9, ambulance_id: assignedTo, license_plate: 'TS09 EA 1005', capability: 'als', status: 'en_route',
    dispatched_at: '2026-11-24T10:00:00.000Z', en_route_at: '2026-11-24T10:00:30.000Z',
    on_scene_at: null, transporting_at: null, at_hospital_at: null, cleared_at: null, cancelled_at: null,
  }]),
}) as unknown as CaseRow;

describe('the tracking link\'s answer', () => {
  it('gives the driver\'s link the case\'s priority and this ambulance\'s assignment', () => {
    const t = presentTrack({ ambulance, case: kase(5), trail: [], role: 'driver', etaSpeedKmh: 30, etaModel });
    expect(t.priority).toBe(1);
    expect(t.assignment).toMatchObject({ id: 9, status: 'en_route', en_route_at: '2026-11-24T10:00:30.000Z', on_scene_at: null });
  });

  it('gives no assignment of another ambulance (a reassigned case)', () => {
    expect(presentTrack({ ambulance, case: kase(6), trail: [], role: 'driver', etaSpeedKmh: 30, etaModel }).assignment).toBeNull();
  });

  it('gives the patient\'s viewer link no priority or assignment: only the unit\'s step and the model, for its estimate', () => {
    const t = presentTrack({ ambulance, case: kase(5), trail: [], role: 'viewer', etaSpeedKmh: 30, etaModel });
    expect(t).not.toHaveProperty('priority');
    expect(t).not.toHaveProperty('assignment');
    expect(t).toMatchObject({ unit_status: 'en_route', eta_model: etaModel });
    expect(presentTrack({ ambulance, case: kase(6), trail: [], role: 'viewer', etaSpeedKmh: 30, etaModel }).unit_status).toBeNull();
  });

  it('gives both links the destination (the intake location before the patient shares), the place text to the driver only', () => {
    const c = { ...kase(5), intake_latitude: 17.41, intake_longitude: 78.48, intake_address: 'Flat 4, Road 12', intake_source: 'address' } as CaseRow;
    expect(presentTrack({ ambulance, case: c, trail: [], role: 'driver', etaSpeedKmh: 30, etaModel }).destination)
      .toEqual({ latitude: 17.41, longitude: 78.48, source: 'intake', address: 'Flat 4, Road 12' });
    expect(presentTrack({ ambulance, case: c, trail: [], role: 'viewer', etaSpeedKmh: 30, etaModel }).destination)
      .toEqual({ latitude: 17.41, longitude: 78.48, source: 'intake', address: null });
  });
});

describe('track.case, from the case staff get', () => {
  const dto = {
    id: 'c1', status: 'active', priority: 2, patient_name: 'Meena Rao', description: 'Fall', latitude: 17.41, longitude: 78.48,
    location_source: 'intake', intake_location: { latitude: 17.41, longitude: 78.48, address: 'Flat 4', source: 'address' }, patient_location: null,
    assignment: { id: 9, case_id: 'c1', ambulance_id: 5, license_plate: 'TS09 EA 1005', status: 'on_scene' },
    assignments: [{ id: 9, case_id: 'c1', ambulance_id: 5, license_plate: 'TS09 EA 1005', status: 'on_scene' }],
  } as unknown as CaseDto;

  it('gives the driver its own assignment and the priority; the viewer only the step', () => {
    expect(presentTrackUpdate(dto, 5, 'driver')).toMatchObject({
      ambulanceId: 5, case: { id: 'c1', status: 'active', patientName: 'Meena Rao', description: 'Fall' }, unit_status: 'on_scene', priority: 2,
      assignment: { id: 9, status: 'on_scene' }, destination: { address: 'Flat 4' },
    });
    const viewer = presentTrackUpdate(dto, 5, 'viewer');
    expect(viewer).toEqual({
      ambulanceId: 5, case: { id: 'c1', status: 'active', patientName: 'Meena Rao', description: 'Fall' }, patient: null, unit_status: 'on_scene',
      destination: { latitude: 17.41, longitude: 78.48, source: 'intake', address: null },
    });
  });

  it('gives another ambulance\'s links no assignment and no step', () => {
    expect(presentTrackUpdate(dto, 6, 'driver')).toMatchObject({ unit_status: null, assignment: null });
  });
});
