import { type AmbulanceDto, type AmbulanceStatus, type Capability, type PositionDto, type PositionSourceName, type UnitStatus, canTransport } from '../contract';
import type { AmbulanceRow, PositionRow } from '../../db/repositories/types';

export const presentAmbulance = (a: AmbulanceRow): AmbulanceDto => ({
  id: a.id,
  license_plate: a.license_plate,
  status: a.status as AmbulanceStatus,
  unit_status: (a.unit_step ?? (a.status === 'maintenance' ? 'maintenance' : 'available')) as UnitStatus,
  unit_status_since: a.unit_step ? (a.unit_step_at ?? null) : null,
  email: a.driver_email,
  capability: (a.capability ?? 'als') as Capability,
  can_transport: canTransport(a.capability ?? 'als'),
  location:
    a.latitude == null || a.longitude == null
      ? null
      : {
        placeName: a.place_name, latitude: Number(a.latitude), longitude: Number(a.longitude), updated_at: a.position_at,
        source: (a.position_source ?? null) as PositionSourceName | null, battery: a.battery ?? null,
      },
  created_at: a.created_at,
  updated_at: a.updated_at,
  version: a.version,
});

export const presentPosition = (p: Pick<PositionRow, 'ambulance_id' | 'latitude' | 'longitude' | 'accuracy' | 'heading' | 'speed' | 'recorded_at' | 'source' | 'battery'>): PositionDto => ({
  ambulanceId: p.ambulance_id,
  latitude: p.latitude,
  longitude: p.longitude,
  accuracy: p.accuracy,
  heading: p.heading,
  speed: p.speed,
  recorded_at: p.recorded_at,
  source: p.source as PositionSourceName,
  battery: p.battery ?? null,
});
