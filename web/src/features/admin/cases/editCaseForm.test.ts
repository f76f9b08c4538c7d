import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto } from '../../../api/contract';
import { ambulanceOptions, editCaseBody, formFromCase, formLocation } from './editCaseForm';

const amb = (id: number, status: AmbulanceDto['status'], at?: [number, number]): AmbulanceDto => ({
  id, license_plate: `TS09 EA 100${id}`, status, email: null, capability: 'als', can_transport: true, unit_status: 'available', unit_status_since: null, created_at: '', updated_at: '', version: 1,
  location: at ? { placeName: null, latitude: at[0], longitude: at[1], updated_at: null, source: 'driver', battery: null } : null,
});
const PATIENT = { latitude: 17.385, longitude: 78.4867 };
const fleet = [
  amb(3, 'available', [17.395, 78.4867]), // ~1.1 km
  amb(1, 'busy', [17.386, 78.4867]), // ~110 m, held by the case
  amb(2, 'available', [17.386, 78.4867]), // ~110 m
  amb(4, 'busy', [17.385, 78.4867]), // on another case
  amb(5, 'available'), // no position
];

describe('Assigned Ambulance options', () => {
  it('offers only ambulances that can take the case: the available ones and the current one, by plate', () => {
    expect(ambulanceOptions(fleet, 1, 'TS09 EA 1001', null).map((o) => o.label)).toEqual([
      'TS09 EA 1001 (Currently assigned)', 'TS09 EA 1002', 'TS09 EA 1003', 'TS09 EA 1005',
    ]);
  });

  it('with a case location: nearest first with distances, never a busy ambulance of another case', () => {
    expect(ambulanceOptions(fleet, 1, 'TS09 EA 1001', PATIENT).map((o) => o.label)).toEqual([
      'TS09 EA 1001 — 111 m (Currently assigned)',
      'TS09 EA 1002 — 111 m',
      'TS09 EA 1003 — 1.1 km',
      'TS09 EA 1005',
    ]);
  });

  it('keeps the one the form holds when it was taken meanwhile (the save is then refused with the reason)', () => {
    expect(ambulanceOptions(fleet, 1, 'TS09 EA 1001', null, 4).map((o) => o.label)).toContain('TS09 EA 1004');
    expect(ambulanceOptions(fleet, 1, 'TS09 EA 1001', PATIENT, 4).map((o) => o.label)).toContain('TS09 EA 1004');
  });

  it('keeps a current ambulance the fleet list no longer has', () => {
    expect(ambulanceOptions(fleet, 9, 'GONE 1', PATIENT)[0]).toEqual({ value: '9', label: 'GONE 1 (Currently assigned)' });
  });
});

describe('the priority on the Edit Case form', () => {
  it("starts at the case's priority and is sent as a number; a form without one leaves it as it is", () => {
    const form = formFromCase({ priority: 2, status: 'active', description: 'x', ambulance_id: null } as unknown as CaseDto);
    expect(form.priority).toBe('2');
    expect(editCaseBody({ ...form, priority: '1' }).priority).toBe(1);
    expect('priority' in editCaseBody({ ...form, priority: undefined })).toBe(false);
  });
});

describe('a call put back in the queue on the Edit Case form', () => {
  it('is sent without an ambulance (a pending call waits without one), whatever the select holds', () => {
    const form = formFromCase({ priority: 2, status: 'active', description: 'x', ambulance_id: 6 } as unknown as CaseDto);
    expect(editCaseBody(form).ambulance_id).toBe(6);
    expect(editCaseBody({ ...form, status: 'pending' }).ambulance_id).toBeNull();
  });
});

describe('the ranking by arrival on the Edit Case form', () => {
  const sug = (id: number, distance_m: number, eta_s: number, stale = false) =>
    ({ ambulance_id: id, license_plate: `TS09 EA 100${id}`, distance_m, eta_s, position_age_s: 10, stale, capability: 'als' as const, can_transport: true, meets_need: true });

  it('lists the held ambulance first, then the server\'s ranking with distance and ETA, then the rest nearest first', () => {
    // The server ranks 3 before 2 (say, 2's position is old); a suggestion for a busy one (4) is not offered.
    const suggestions = [sug(3, 1100, 200), sug(2, 111, 400, true), sug(4, 0, 10)];
    expect(ambulanceOptions(fleet, 1, 'TS09 EA 1001', PATIENT, null, suggestions).map((o) => o.label)).toEqual([
      'TS09 EA 1001 — 111 m (Currently assigned)',
      // 200 s: 4 min, rounded up as every screen words the one estimate (contract arrivalMinutes).
      'TS09 EA 1003 — 1.1 km, ~4 min',
      'TS09 EA 1002 — 111 m, ~7 min, position old',
      'TS09 EA 1005',
    ]);
  });

  it('keeps the by-plate list without a location, whatever was ranked', () => {
    expect(ambulanceOptions(fleet, 1, 'TS09 EA 1001', null, null, [sug(3, 1100, 200)]).map((o) => o.label)[1]).toBe('TS09 EA 1002');
  });
});

describe('the intake location on the Edit Case form', () => {
  const intake = { latitude: 17.4126, longitude: 78.4482, address: 'Banjara Hills', source: 'address' as const };
  const c = { priority: 2, status: 'active', description: 'x', ambulance_id: null, intake_location: intake, latitude: 17.4126, longitude: 78.4482, patient_location: null } as unknown as CaseDto;

  it('starts from the case and is sent only once changed or cleared', () => {
    const form = formFromCase(c);
    expect(form.intake).toEqual(intake);
    expect('intake_location' in editCaseBody(form)).toBe(false);
    expect(editCaseBody({ ...form, intake: null, intakeChanged: true }).intake_location).toBeNull();
    const moved = { ...intake, latitude: 17.4, address: '17.40000, 78.44820', source: 'pin' as const };
    expect(editCaseBody({ ...form, intake: moved, intakeChanged: true }).intake_location).toEqual(moved);
  });

  it('ranks for the best known location: the case\'s own, or the new intake unless an accurate patient fix wins', () => {
    const form = formFromCase(c);
    expect(formLocation(form, c)).toEqual({ latitude: 17.4126, longitude: 78.4482 });
    const moved = { ...intake, latitude: 17.3 };
    expect(formLocation({ ...form, intake: moved, intakeChanged: true }, c)).toEqual({ latitude: 17.3, longitude: 78.4482 });
    expect(formLocation({ ...form, intake: null, intakeChanged: true }, c)).toBeNull();
    const withFix = { ...c, patient_location: { latitude: 17.5, longitude: 78.5, accuracy: 20, updated_at: '' } };
    expect(formLocation({ ...form, intake: moved, intakeChanged: true }, withFix)).toEqual({ latitude: 17.5, longitude: 78.5 });
  });
});
