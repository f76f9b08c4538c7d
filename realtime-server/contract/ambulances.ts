import { z } from 'zod';
import { email, latitude, longitude } from './common';
import { MAX_ACCURACY_M, MAX_SPEED_MPS } from './geo';
import type { AmbulanceStatus } from './enums';
import type { UnitStatus } from './callLife';
import type { PositionSourceName } from './location';
import { type Capability, DEFAULT_CAPABILITY } from './capability';
import { capabilitySchema } from './capabilitySchemas';

// Invisible letters (a Hangul filler is a letter to Unicode) would make a plate that reads like another.
const plate = z.string().trim().min(1, 'required').max(20)
  .regex(/^(?:(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N} -])+$/u, 'letters, digits, spaces and dashes only');
const driverEmail = z.union([z.literal(''), z.null(), email()]).transform((v) => v || null);

/** POST /api/ambulances (admins). An ambulance becomes busy only through a case. */
export const ambulanceCreateSchema = z.object({
  license_plate: plate,
  status: z.enum(['available', 'maintenance'], { error: 'must be available or maintenance (busy comes from a case)' }).default('available'),
  email: driverEmail.optional(),
  /** What the unit can do (contract/capability.ts); ALS when not given. */
  capability: capabilitySchema.default(DEFAULT_CAPABILITY),
  latitude: latitude().optional(),
  longitude: longitude().optional(),
}).refine((v) => (v.latitude === undefined) === (v.longitude === undefined), {
  message: 'latitude and longitude go together', path: ['latitude'],
});
export type AmbulanceCreateInput = z.infer<typeof ambulanceCreateSchema>;

/** PUT /api/ambulances/{id}: admins may change every field, other staff only status. */
export const ambulanceUpdateSchema = z.object({
  license_plate: plate.optional(),
  status: z.enum(['available', 'busy', 'maintenance'], { error: 'must be available, busy or maintenance' }).optional(),
  email: driverEmail.optional(),
  capability: capabilitySchema.optional(),
}).refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'nothing to update' });
export type AmbulanceUpdateInput = z.infer<typeof ambulanceUpdateSchema>;

/** A position report from a driver's device, the simulator or staff. */
export const positionSchema = z.object({
  latitude: latitude(),
  longitude: longitude(),
  accuracy: z.number().finite().min(0).max(MAX_ACCURACY_M).optional(),
  heading: z.number().finite().min(0).max(360).optional(),
  /** Metres per second, as the Geolocation API reports it. */
  speed: z.number().finite().min(0).max(MAX_SPEED_MPS, { error: `must be at most ${MAX_SPEED_MPS} m/s` }).optional(),
  /** The device's battery level in percent, when it reports one. */
  battery: z.number().finite().min(0).max(100).optional(),
  /** When the device took the fix: ISO text or epoch milliseconds; the receive time if absent. */
  timestamp: z.union([z.number().int().positive(), z.iso.datetime({ offset: true })]).optional(),
});
export type PositionInput = z.infer<typeof positionSchema>;

export interface AmbulanceLocationDto {
  placeName: string | null;
  latitude: number;
  longitude: number;
  updated_at: string | null;
  /** Where the fix came from; its stale threshold is /api/config's stale_after_s[source]. */
  source: PositionSourceName | null;
  /** Percent, when the device reported its battery. */
  battery: number | null;
}

export interface AmbulanceDto {
  id: number;
  license_plate: string;
  status: AmbulanceStatus;
  /** What the unit is doing: available, maintenance, or its open assignment's step (busy while it has one). */
  unit_status: UnitStatus;
  /** When the open assignment reached that step; null for available and maintenance. */
  unit_status_since: string | null;
  email: string | null;
  /** What the unit can do (NEMSIS eResponse.07): als, bls, cct or responder. */
  capability: Capability;
  /** False only for a responder (a car that treats but cannot convey). */
  can_transport: boolean;
  location: AmbulanceLocationDto | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface PositionDto {
  ambulanceId: number;
  latitude: number;
  longitude: number;
  accuracy: number | null;
  heading: number | null;
  speed: number | null;
  recorded_at: string;
  source: PositionSourceName;
  battery: number | null;
}
