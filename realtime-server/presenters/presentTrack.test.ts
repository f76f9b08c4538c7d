import { describe, expect, it } from 'vitest';
import type { AmbulanceRow, CaseRow } from '../../db/repositories/types';
import { presentTrack } from './presentTrack';

const ambulance = { id: 5, license_plate: 'TS09 EA 1005', latitude: null, longitude: null, position_at: null } as AmbulanceRow;
const kase = (assignedTo: number) => ({
  id: 'c1', status: 'active', patient_name: 'Meena Rao', description: 'Heart Attack', latitude: null, longitude: null, location_at: null,
  priority: 1, a_id: 9, a_ambulance_id: assignedTo, a_license_plate: 'TS09 EA 1005', a_status: 'en_route',
  a_dispatched_at: '2026-11-24T10:00:00.000Z', a_en_route_at: '2026-11-24T10:00:30.000Z',
}) as CaseRow;

describe('the tracking link\'s answer', () => {
  it('gives the driver\'s link the case\'s priority and this ambulance\'s assignment', () => {
    const t = presentTrack({ ambulance, case: kase(5), trail: [], role: 'driver', etaSpeedKmh: 30 });
    expect(t.priority).toBe(1);
    expect(t.assignment).toMatchObject({ id: 9, status: 'en_route', en_route_at: '2026-11-24T10:00:30.000Z', on_scene_at: null });
  });

  it('gives no assignment of another ambulance (a reassigned case)', () => {
    expect(presentTrack({ ambulance, case: kase(6), trail: [], role: 'driver', etaSpeedKmh: 30 }).assignment).toBeNull();
  });

  it('gives the patient\'s viewer link nothing new', () => {
    const t = presentTrack({ ambulance, case: kase(5), trail: [], role: 'viewer', etaSpeedKmh: 30 });
    expect(t).not.toHaveProperty('priority');
    expect(t).not.toHaveProperty('assignment');
  });
});
