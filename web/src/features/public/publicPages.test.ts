import { describe, expect, it } from 'vitest';
import { type TrackResponse, TRAIL_MAX_POINTS as TRAIL_LIMIT } from '../../api/contract';
import { GEOLOCATION_OPTIONS, isPoorAccuracy, readSavedLocation, saveLocation, shouldSend } from './locationShare';
import { applyPositions, applyTrackCase } from './useTrackedPosition';
import { memoryStorage } from '../../testing/memoryStorage';


describe('the local copy of a shared location', () => {
  it('asks the browser for a fresh, high-accuracy fix within 10 s', () => {
    expect(GEOLOCATION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 10000, maximumAge: 0 });
  });

  it('is kept under the case id, rounded to 8 decimals, with an ISO time', () => {
    const storage = memoryStorage();
    const saved = saveLocation('case-1', 17.123456789123, -78.987654321987, storage);
    expect(saved).toEqual({ latitude: 17.12345679, longitude: -78.98765432, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    expect(JSON.parse(storage.getItem('case-1')!)).toEqual(saved);
    expect(readSavedLocation('case-1', storage)).toEqual(saved);
  });

  it('is none when nothing is stored, and unreadable (throws) when the copy is not a location', () => {
    expect(readSavedLocation('x', memoryStorage())).toBeNull();
    expect(() => readSavedLocation('x', memoryStorage({ x: '{oops' }))).toThrow();
    expect(() => readSavedLocation('x', memoryStorage({ x: '{"latitude":"1"}' }))).toThrow();
    expect(() => readSavedLocation('x', memoryStorage({ x: 'null' }))).toThrow();
  });

  it('does not turn a successful share into a failure when storage is full', () => {
    const full = { ...memoryStorage(), setItem: () => { throw new Error('QuotaExceededError'); } } as Storage;
    expect(saveLocation('c', 1, 2, full)).toMatchObject({ latitude: 1, longitude: 2 });
  });
});

describe('live positions on the tracking page', () => {
  const held: TrackResponse = {
    ambulanceId: 6, license_plate: 'P6', latitude: 17.385, longitude: 78.4867, updated_at: '2026-01-01T00:00:10.000Z',
    trail: [], case: { id: 'c', status: 'active', patientName: 'P', description: 'Stroke' }, patient: null, etaSpeedKmh: 30, eta_model: { road_factor: 1.3, speed_kmh: 30 }, unit_status: 'en_route', destination: null, role: 'viewer',
  };
  const at = (ambulanceId: number, latitude: number, recorded_at: string) => ({ ambulanceId, latitude, longitude: 78.5, recorded_at });

  it('takes the newest position of this ambulance only, and extends the trail in time order', () => {
    const next = applyPositions(held, '6', { positions: [at(6, 17.5, '2026-01-01T00:00:30.000Z'), at(6, 17.4, '2026-01-01T00:00:20.000Z'), at(7, 1, '2026-01-01T00:00:40.000Z')] });
    expect(next).toEqual({
      ...held, latitude: 17.5, longitude: 78.5, updated_at: '2026-01-01T00:00:30.000Z',
      trail: [
        { latitude: 17.4, longitude: 78.5, recorded_at: '2026-01-01T00:00:20.000Z' },
        { latitude: 17.5, longitude: 78.5, recorded_at: '2026-01-01T00:00:30.000Z' },
      ],
    });
  });

  it('keeps the trail bounded (the newest points stay)', () => {
    let state: TrackResponse | undefined = held;
    for (let i = 0; i < TRAIL_LIMIT + 50; i++) {
      state = applyPositions(state, '6', { positions: [at(6, 17 + i / 1e4, new Date(Date.parse('2026-01-01T00:01:00.000Z') + i * 1000).toISOString())] });
    }
    expect(state!.trail).toHaveLength(TRAIL_LIMIT);
    expect(state!.trail.at(-1)!.latitude).toBe(state!.latitude);
  });

  it('drops positions older than the one held, and batches for other ambulances', () => {
    expect(applyPositions(held, '6', { positions: [at(6, 1, '2026-01-01T00:00:05.000Z')] })).toBe(held);
    expect(applyPositions(held, '6', { positions: [at(5, 1, '2026-01-01T00:00:50.000Z')] })).toBe(held);
    expect(applyPositions(undefined, '6', { positions: [at(6, 1, '2026-01-01T00:00:50.000Z')] })).toBeUndefined();
  });
});

describe('track.case on a tracking or driver link', () => {
  const held: TrackResponse = {
    ambulanceId: 6, license_plate: 'P6', latitude: 17.385, longitude: 78.4867, updated_at: '2026-01-01T00:00:10.000Z',
    trail: [], case: { id: 'c1', status: 'active', patientName: 'P', description: 'Stroke' }, patient: null, etaSpeedKmh: 30,
    eta_model: { road_factor: 1.3, speed_kmh: 30 }, unit_status: 'dispatched', destination: null, role: 'driver', priority: 2,
    assignment: { id: 4, case_id: 'c1', ambulance_id: 6, license_plate: 'P6', status: 'dispatched' } as TrackResponse['assignment'],
  };
  const update = { ambulanceId: 6, case: { ...held.case, description: 'Stroke, awake' }, patient: null, unit_status: 'en_route' as const, destination: null };

  it('takes the case, the step and (for the driver) the priority and assignment of its own case and ambulance', () => {
    const assignment = { ...held.assignment!, status: 'en_route' as const, en_route_at: '2026-01-01T00:01:00.000Z' };
    expect(applyTrackCase(held, { ...update, priority: 1, assignment })).toEqual({
      ...held, case: update.case, unit_status: 'en_route', priority: 1, assignment,
    });
    // A viewer's update carries neither: what the link held stays.
    expect(applyTrackCase(held, update)).toMatchObject({ priority: 2, assignment: held.assignment, unit_status: 'en_route' });
  });

  it('takes the call\'s other units as the driver\'s update lists them; a viewer\'s (none) keeps them', () => {
    const units = [{ license_plate: 'CAR 1', capability: 'responder' as const, can_transport: false, status: 'on_scene' as const }];
    const withUnits = applyTrackCase(held, { ...update, units });
    expect(withUnits?.units).toEqual(units);
    expect(applyTrackCase(withUnits, update)?.units).toEqual(units);
    expect(applyTrackCase(withUnits, { ...update, units: [] })?.units).toEqual([]);
  });

  it('takes the patient\'s shared position and the destination it makes (the patient\'s share reaches a link as track.case)', () => {
    const patient = { latitude: 17.41, longitude: 78.41, accuracy: 12, updated_at: '2026-01-01T00:00:20.000Z' };
    const destination = { latitude: 17.41, longitude: 78.41, source: 'patient' as const, address: null };
    expect(applyTrackCase(held, { ...update, patient, destination })).toMatchObject({ patient, destination });
  });

  it('ignores another case or ambulance', () => {
    expect(applyTrackCase(held, { ...update, case: { ...update.case, id: 'c2' } })).toBe(held);
    expect(applyTrackCase(held, { ...update, ambulanceId: 7 })).toBe(held);
    expect(applyTrackCase(undefined, update)).toBeUndefined();
  });
});

describe('continuous sharing throttle', () => {
  const base = { latitude: 17.4, longitude: 78.4 };
  // 0.0001 degree of latitude is about 11 m.
  const north = (m: number) => ({ latitude: 17.4 + m / 111_195, longitude: 78.4 });
  const t0 = 1_000_000;

  it('sends the first fix at once', () => {
    expect(shouldSend(null, base, t0)).toBe(true);
  });

  it('sends when moved more than 10 m from the last fix sent, not for less', () => {
    const last = { ...base, at: t0 };
    expect(shouldSend(last, north(9), t0 + 1000)).toBe(false);
    expect(shouldSend(last, north(10.5), t0 + 1000)).toBe(true);
    expect(shouldSend(last, { latitude: 17.4, longitude: 78.4 + 12 / 106_000 }, t0 + 1000)).toBe(true);
  });

  it('sends every 15 s even without moving, and not before', () => {
    const last = { ...base, at: t0 };
    expect(shouldSend(last, base, t0 + 14_999)).toBe(false);
    expect(shouldSend(last, base, t0 + 15_000)).toBe(true);
    expect(shouldSend(last, north(3), t0 + 20_000)).toBe(true);
  });

  it('flags a fix worse than 50 m as approximate', () => {
    expect(isPoorAccuracy(50)).toBe(false);
    expect(isPoorAccuracy(51)).toBe(true);
    expect(isPoorAccuracy(null)).toBe(false);
    expect(isPoorAccuracy(NaN)).toBe(false);
  });
});
