import { type Db, type TrackTokenRow, nowIso, fetched } from './types';

export const trackTokenRepository = {
  insert: (db: Db, row: Pick<TrackTokenRow, 'token_hash' | 'kind' | 'case_id' | 'ambulance_id'>) =>
    db('track_tokens').insert({ ...row, created_at: nowIso() }),
  /** A token that is not revoked and whose case is still active and still holds its ambulance. */
  findLive: (db: Db, tokenHash: string) =>
    fetched<TrackTokenRow | undefined>(db<TrackTokenRow>('track_tokens')
      .join('cases', 'cases.id', 'track_tokens.case_id')
      .where('track_tokens.token_hash', tokenHash)
      .whereNull('track_tokens.revoked_at')
      .where('cases.status', 'active')
      .whereRaw('cases.ambulance_id = track_tokens.ambulance_id')
      .select('track_tokens.*')
      .first()),
  /** A token's row whatever its state (revoked, its case over): the driver link's standby asks (policies/links.ts). */
  findAny: (db: Db, tokenHash: string) => db<TrackTokenRow>('track_tokens').where({ token_hash: tokenHash }).first(),
  revokeForCase: (db: Db, caseId: string) =>
    db('track_tokens').where({ case_id: caseId }).whereNull('revoked_at').update({ revoked_at: nowIso() }),
};
