import type { Db, PositionRow } from './types';

export const positionRepository = {
  insert: (db: Db, rows: Omit<PositionRow, 'id'>[]) => db('ambulance_positions').insert(rows),
  recentForAmbulance: (db: Db, ambulanceId: number, limit: number) =>
    db<PositionRow>('ambulance_positions').where({ ambulance_id: ambulanceId })
      .orderBy('recorded_at', 'desc').limit(limit),
};
