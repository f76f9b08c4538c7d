import type { Db, PositionRow } from './types';

/** A free ambulance with a known position: what a dispatch suggestion ranks. */
export interface CandidateRow {
  id: number; license_plate: string; capability: string; latitude: number; longitude: number; position_at: string; position_source: string | null;
}

/** A free ambulance, with its position when it has one: what a call's own suggestions list. */
export interface FreeUnitRow {
  id: number; license_plate: string; capability: string; latitude: number | null; longitude: number | null; position_at: string | null; position_source: string | null;
}

/** A busy ambulance that has not reached its call yet, with that call (see divertibleBelow). */
export interface DivertibleRow extends FreeUnitRow {
  case_id: string; case_priority: number; unit_status: 'dispatched' | 'en_route';
}

/** A finished trip's times and the distances recorded at its arrival. */
export interface TripRow {
  id: number; en_route_at: string; on_scene_at: string; travel_distance_m: number; travel_straight_m: number;
}

const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v == null ? null : Number(v));
const POSITION = ['latitude', 'longitude', 'position_at', 'position_source'].map((c) => `ambulances.${c}`);

/** What arrival estimates read (free ambulances, the centre's trips) and what an arrival records for them. */
export const arrivalRepository = {
  /** Available ambulances with a position (one without is left out: nothing to estimate from). */
  async freeWithPosition(db: Db): Promise<CandidateRow[]> {
    const rows = await db<CandidateRow>('ambulances')
      .where('status', 'available').whereNotNull('latitude').whereNotNull('longitude').whereNotNull('position_at')
      .orderBy('id').select('id', 'license_plate', 'capability', 'latitude', 'longitude', 'position_at', 'position_source');
    return rows.map((r) => ({ ...r, latitude: num(r.latitude), longitude: num(r.longitude) }));
  },

  /** Every available ambulance in id order, placed or not. */
  async free(db: Db): Promise<FreeUnitRow[]> {
    const rows = await db<FreeUnitRow>('ambulances').where('status', 'available').orderBy('id')
      .select('id', 'license_plate', 'capability', 'latitude', 'longitude', 'position_at', 'position_source');
    return rows.map((r) => ({ ...r, latitude: numOrNull(r.latitude), longitude: numOrNull(r.longitude) }));
  },

  /**
   * The units that could be diverted to a call of `priority`: each one's open assignment still
   * dispatched or en route, on an active call of a larger priority number, in id order.
   */
  async divertibleBelow(db: Db, priority: number): Promise<DivertibleRow[]> {
    const rows = await db('ambulances')
      .join('assignments as a', 'a.ambulance_id', 'ambulances.id')
      .join('cases', 'cases.id', 'a.case_id')
      .whereIn('a.status', ['dispatched', 'en_route'])
      .where('cases.status', 'active').where('cases.priority', '>', priority)
      .orderBy('ambulances.id')
      .select('ambulances.id', 'ambulances.license_plate', 'ambulances.capability', ...POSITION, 'cases.id as case_id', 'cases.priority as case_priority', 'a.status as unit_status');
    return (rows as DivertibleRow[]).map((r) => ({ ...r, latitude: numOrNull(r.latitude), longitude: numOrNull(r.longitude), case_priority: num(r.case_priority) }));
  },

  /** Trips that reached the scene since `sinceIso` with both distances recorded, the newest first, at most `limit`. */
  async recentTrips(db: Db, sinceIso: string, limit: number): Promise<TripRow[]> {
    const rows = await db<TripRow>('assignments')
      .whereNotNull('en_route_at').where('on_scene_at', '>=', sinceIso)
      .whereNotNull('travel_distance_m').whereNotNull('travel_straight_m')
      .orderBy('on_scene_at', 'desc').orderBy('id', 'desc').limit(limit)
      .select('id', 'en_route_at', 'on_scene_at', 'travel_distance_m', 'travel_straight_m');
    return rows.map((r) => ({ ...r, travel_distance_m: num(r.travel_distance_m), travel_straight_m: num(r.travel_straight_m) }));
  },

  /** An ambulance's fixes taken from `fromIso` to `toIso` (both included), oldest first. */
  async fixesBetween(db: Db, ambulanceId: number, fromIso: string, toIso: string) {
    const rows = await db<PositionRow>('ambulance_positions')
      .where('ambulance_id', ambulanceId).where('recorded_at', '>=', fromIso).where('recorded_at', '<=', toIso)
      .orderBy('recorded_at').orderBy('id').select('latitude', 'longitude');
    return rows.map((r) => ({ latitude: num(r.latitude), longitude: num(r.longitude) }));
  },

  /** Records the trip's distances on its assignment at arrival. */
  recordTravel: (db: Db, assignmentId: number, t: { travel_distance_m: number; travel_straight_m: number }) =>
    db('assignments').where({ id: assignmentId }).update(t),
};
