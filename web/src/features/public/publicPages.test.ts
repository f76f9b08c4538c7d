import { describe, expect, it } from 'vitest';
import type { TrackResponse } from '../../api/contract';
import { GEOLOCATION_OPTIONS, readSavedLocation, saveLocation } from './locationShare';
import { applyPositions } from './useTrackedPosition';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(initial));
  return {
    get length() { return items.size; },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

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
    trail: [], case: { id: 'c', status: 'active', patientName: 'P', description: 'Stroke' }, patient: null, etaSpeedKmh: 30, role: 'viewer',
  };
  const at = (ambulanceId: number, latitude: number, recorded_at: string) =>
    ({ ambulanceId, latitude, longitude: 78.5, accuracy: null, heading: null, speed: null, recorded_at });

  it('takes the newest position of this ambulance only', () => {
    const next = applyPositions(held, '6', { positions: [at(6, 17.4, '2026-01-01T00:00:20.000Z'), at(6, 17.5, '2026-01-01T00:00:30.000Z'), at(7, 1, '2026-01-01T00:00:40.000Z')] });
    expect(next).toEqual({ ...held, latitude: 17.5, longitude: 78.5, updated_at: '2026-01-01T00:00:30.000Z' });
  });

  it('drops positions older than the one held, and batches for other ambulances', () => {
    expect(applyPositions(held, '6', { positions: [at(6, 1, '2026-01-01T00:00:05.000Z')] })).toBe(held);
    expect(applyPositions(held, '6', { positions: [at(5, 1, '2026-01-01T00:00:50.000Z')] })).toBe(held);
    expect(applyPositions(undefined, '6', { positions: [at(6, 1, '2026-01-01T00:00:50.000Z')] })).toBeUndefined();
  });
});
