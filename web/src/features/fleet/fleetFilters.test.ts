import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { applyFilter, FLEET_FILTERS, fleetRows } from './fleetFilters';

const amb = (id: number, status: AmbulanceDto['status']): AmbulanceDto => ({
  id, license_plate: `P${id}`, status, email: null, capability: 'als', can_transport: true, unit_status: 'available', unit_status_since: null, location: null, created_at: '', updated_at: '', version: 1,
});
const kase = (id: string, ambulance_id: number | null, status: CaseDto['status'], license_plate: string | null = null) =>
  ({ id, ambulance_id, status, license_plate, description: '', email: '' }) as CaseDto;

describe('fleet rows and filters', () => {
  const ambulances = [amb(1, 'busy'), amb(2, 'available'), amb(3, 'busy'), amb(4, 'maintenance'), amb(5, 'available')];
  const cases = [kase('a', 1, 'active'), kase('b', 2, 'closed'), kase('c', null, 'active', 'P5')];
  const rows = fleetRows(ambulances, cases);

  it('pairs each ambulance with its active case by id or plate, ignoring closed cases', () => {
    expect(rows.map((r) => r.activeCase?.id ?? null)).toEqual(['a', null, null, null, 'c']);
    expect(rows.map((r) => r.fleetClass)).toEqual(['emergency', 'available', 'busy', 'other', 'emergency']);
  });

  it('filters by class; All keeps everything, maintenance included', () => {
    const ids = (f: Parameters<typeof applyFilter>[1]) => applyFilter(rows, f).map((r) => r.ambulance.id);
    expect(ids('all')).toEqual([1, 2, 3, 4, 5]);
    expect(ids('emergency')).toEqual([1, 5]);
    expect(ids('available')).toEqual([2]);
    expect(ids('busy')).toEqual([3]);
  });

  it('has a reason per filter for the empty state', () => {
    expect(FLEET_FILTERS.map((f) => [f.label, f.emptyReason])).toEqual([
      ['All Ambulances', 'No ambulances in the system'],
      ['On Emergency', 'No ambulances are currently on emergency calls'],
      ['Available', 'No ambulances are currently available'],
      ['Busy', 'No ambulances are currently busy'],
    ]);
  });
});
