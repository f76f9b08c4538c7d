import { describe, expect, it } from 'vitest';
import type { AmbulanceDto } from '../api/contract';
import { type CaseDto, pointWkb } from '../api/contract';
import { patchCaseLocation, patchPositions, putByName, removeById, upsert } from './cachePatches';

const amb = (id: number, version: number, updated_at: string | null = null): AmbulanceDto => ({
  id, license_plate: `P${id}`, status: 'available', email: null, capability: 'als', can_transport: true, unit_status: 'available', unit_status_since: null, created_at: '', updated_at: '', version,
  location: updated_at ? { placeName: 'x', latitude: 1, longitude: 1, updated_at, source: 'driver', battery: null } : null,
});

describe('cache patches', () => {
  it('upserts only newer versions', () => {
    const list = [amb(1, 2)];
    expect(upsert(list, amb(1, 1))).toBe(list);
    expect(upsert(list, amb(1, 3))![0].version).toBe(3);
    expect(upsert(list, amb(2, 1), true)!.map((a) => a.id)).toEqual([2, 1]);
    expect(upsert(undefined, amb(1, 1))).toBeUndefined();
    expect(removeById(list, 1)).toEqual([]);
  });
  it('moves a marker only forward in time', () => {
    const list = [amb(1, 1, '2026-01-01T00:00:10.000Z')];
    const older = patchPositions(list, [{ ambulanceId: 1, latitude: 5, longitude: 5, accuracy: null, heading: null, speed: null, source: 'driver' as const, battery: null, recorded_at: '2026-01-01T00:00:05.000Z' }]);
    expect(older![0].location!.latitude).toBe(1);
    const newer = patchPositions(list, [{ ambulanceId: 1, latitude: 5, longitude: 6, accuracy: null, heading: null, speed: null, source: 'driver' as const, battery: null, recorded_at: '2026-01-01T00:00:20.000Z' }]);
    expect(newer![0].location).toMatchObject({ latitude: 5, longitude: 6, updated_at: '2026-01-01T00:00:20.000Z' });
  });
  it('patches a case location with its WKB, only when newer', () => {
    const c = { id: 'c', version: 2, latitude: null, longitude: null, wkb: null } as unknown as CaseDto;
    const at = '2026-01-01T00:00:00.000Z';
    const ev = (version: number) => ({
      id: 'c', latitude: 1, longitude: 2, location_source: 'patient' as const, location_accuracy: 5, location_updated_at: at,
      patient_location: { latitude: 1, longitude: 2, accuracy: 5, updated_at: at }, location_mismatch_m: null, version,
    });
    expect(patchCaseLocation([c], ev(2))![0]).toBe(c);
    expect(patchCaseLocation([c], ev(3))![0])
      .toMatchObject({ latitude: 1, longitude: 2, wkb: pointWkb(1, 2), location_accuracy: 5, location_updated_at: at, location_source: 'patient', version: 3 });
  });
});

describe('a list in name order (hospitals)', () => {
  const row = (id: number, name: string) => ({ id, name });
  it('replaces a row in place or inserts it where the server orders it (name, then id)', () => {
    const list = [row(1, 'Alder'), row(2, 'Cedar')];
    expect(putByName(list, row(3, 'Birch'))).toEqual([row(1, 'Alder'), row(3, 'Birch'), row(2, 'Cedar')]);
    expect(putByName(list, row(1, 'Dogwood'))).toEqual([row(2, 'Cedar'), row(1, 'Dogwood')]);
    expect(putByName(list, row(0, 'Cedar'))).toEqual([row(1, 'Alder'), row(0, 'Cedar'), row(2, 'Cedar')]);
    expect(putByName(undefined, row(1, 'Alder'))).toBeUndefined();
  });
});
