import { preparedFirst } from '../preparedRead';
import { type Db, type TrackTokenRow, nowIso } from './types';

/** Looked up on every driver position and tracking poll: prepared once on SQLite (preparedFirst). */
const FIND_LIVE = `select track_tokens.* from track_tokens join cases on cases.id = track_tokens.case_id
  where track_tokens.token_hash = ? and track_tokens.revoked_at is null and cases.status = 'active'
    and exists (select 1 from assignments a where a.case_id = track_tokens.case_id and a.ambulance_id = track_tokens.ambulance_id
      and a.status not in ('cleared', 'cancelled'))
  limit 1`;

export const trackTokenRepository = {
  insert: (db: Db, row: Pick<TrackTokenRow, 'token_hash' | 'kind' | 'case_id' | 'ambulance_id'>) =>
    db('track_tokens').insert({ ...row, created_at: nowIso() }),
  /** A token that is not revoked, whose case is still active and whose ambulance is still on it (an open assignment). */
  findLive: (db: Db, tokenHash: string) => preparedFirst<TrackTokenRow>(db, FIND_LIVE, [tokenHash]),
  /** A token's row whatever its state (revoked, its case over): the driver link's standby asks (policies/links.ts). */
  findAny: (db: Db, tokenHash: string) => db<TrackTokenRow>('track_tokens').where({ token_hash: tokenHash }).first(),
  /** Revokes a case's links: all of them, or one ambulance's. */
  revokeForCase: (db: Db, caseId: string, ambulanceId?: number) =>
    db('track_tokens').where({ case_id: caseId }).modify((q) => { if (ambulanceId != null) void q.where({ ambulance_id: ambulanceId }); })
      .whereNull('revoked_at').update({ revoked_at: nowIso() }),
};
