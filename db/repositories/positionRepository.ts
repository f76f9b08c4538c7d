import type { Db, PositionRow } from './types';

export const positionRepository = {
  insert: (db: Db, rows: Omit<PositionRow, 'id'>[]) => db('ambulance_positions').insert(rows),
  /** The recent trail, oldest first: fixes since `sinceIso`, at most the newest `limit`. */
  async trail(db: Db, ambulanceId: number, sinceIso: string, limit: number) {
    const rows = await db<PositionRow>('ambulance_positions')
      .where({ ambulance_id: ambulanceId }).where('recorded_at', '>=', sinceIso)
      .orderBy('recorded_at', 'desc').limit(limit)
      .select('latitude', 'longitude', 'recorded_at');
    return rows.reverse().map((r) => ({ latitude: Number(r.latitude), longitude: Number(r.longitude), recorded_at: r.recorded_at }));
  },
  recentForAmbulance: (db: Db, ambulanceId: number, limit: number) =>
    db<PositionRow>('ambulance_positions').where({ ambulance_id: ambulanceId })
      .orderBy('recorded_at', 'desc').limit(limit),
};
