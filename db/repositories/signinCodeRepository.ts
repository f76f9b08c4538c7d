import { type Db, insertedId, nowIso } from './types';

export interface SigninCodeRow {
  id: number; challenge_hash: string; user_id: number; code_hash: string; attempts: number;
  created_at: string; expires_at: string; used_at: string | null;
}

export const signinCodeRepository = {
  /** A new challenge for a user; the user's earlier unused challenges stop working (only the latest mail counts). */
  /** A challenge valid for `validMs` from its creation (one clock reading for both times). */
  async insert(db: Db, row: { challengeHash: string; userId: number; codeHash: string; validMs: number }): Promise<number> {
    const now = nowIso();
    const expiresAt = new Date(Date.parse(now) + row.validMs).toISOString();
    await db('signin_codes').where({ user_id: row.userId }).whereNull('used_at').delete();
    // Housekeeping: challenges that ended more than a day ago are of no use to anyone.
    await db('signin_codes').where('expires_at', '<', new Date(Date.now() - 86_400_000).toISOString()).delete();
    return insertedId(await db('signin_codes').insert({
      challenge_hash: row.challengeHash, user_id: row.userId, code_hash: row.codeHash, attempts: 0,
      created_at: now, expires_at: expiresAt, used_at: null,
    }).returning('id'));
  },
  findByChallenge: (db: Db, challengeHash: string) => db<SigninCodeRow>('signin_codes').where({ challenge_hash: challengeHash }).first(),
  /** Counts one try on an unused challenge with tries left; 1 when counted, 0 when none are left. */
  countTry: (db: Db, id: number, maxTries: number) =>
    db('signin_codes').where({ id }).whereNull('used_at').where('attempts', '<', maxTries).update({ attempts: db.raw('attempts + 1') }),
  /** Marks a challenge used; 1 when this caller used it. */
  markUsed: (db: Db, id: number) => db('signin_codes').where({ id }).whereNull('used_at').update({ used_at: nowIso() }),
};
