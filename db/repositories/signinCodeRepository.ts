import { type Db, insertedId, nowIso } from './types';

/** A code mailed to an account (SIGNIN_CODE=email): its tries and its single use count here, whichever challenge sends them. */
export interface SigninCodeRow {
  id: number; user_id: number; code_salt: string; code_hash: string; attempts: number;
  created_at: string; expires_at: string; used_at: string | null;
}

export const signinCodeRepository = {
  /** A new code for a user, valid for `validMs` from its creation (one clock reading for both times). */
  async insertCode(db: Db, row: { userId: number; salt: string; codeHash: string; validMs: number }): Promise<number> {
    const now = nowIso();
    const expiresAt = new Date(Date.parse(now) + row.validMs).toISOString();
    // Housekeeping: codes that ended more than a day ago are of no use to anyone (their challenges go with them).
    await db('signin_codes').where('expires_at', '<', new Date(Date.now() - 86_400_000).toISOString()).delete();
    return insertedId(await db('signin_codes').insert({
      user_id: row.userId, code_salt: row.salt, code_hash: row.codeHash, attempts: 0, created_at: now, expires_at: expiresAt, used_at: null,
    }).returning('id'));
  },
  /** The user's latest code that can still be entered (unused, tries left, not expired), if any. */
  liveFor: (db: Db, userId: number, maxTries: number) =>
    db<SigninCodeRow>('signin_codes').where({ user_id: userId }).whereNull('used_at').where('attempts', '<', maxTries)
      .where('expires_at', '>', nowIso()).orderBy('id', 'desc').first(),
  /** A sign-in's challenge (its hash) for a code. */
  insertChallenge: async (db: Db, challengeHash: string, codeId: number) => {
    await db('signin_challenges').insert({ challenge_hash: challengeHash, code_id: codeId, created_at: nowIso() });
  },
  /** The code a challenge points at. */
  findByChallenge: (db: Db, challengeHash: string): Promise<SigninCodeRow | undefined> =>
    db('signin_challenges').join('signin_codes', 'signin_codes.id', 'signin_challenges.code_id')
      .where('signin_challenges.challenge_hash', challengeHash).first<SigninCodeRow | undefined>('signin_codes.*'),
  /** Counts one try on an unused code with tries left; 1 when counted, 0 when none are left. */
  countTry: (db: Db, id: number, maxTries: number) =>
    db('signin_codes').where({ id }).whereNull('used_at').where('attempts', '<', maxTries).update({ attempts: db.raw('attempts + 1') }),
  /** Marks a code used (every challenge pointing at it dies with it); 1 when this caller used it. */
  markUsed: (db: Db, id: number) => db('signin_codes').where({ id }).whereNull('used_at').update({ used_at: nowIso() }),
};
