import { type Db, type SessionRow, type UserRow, insertedId, nowIso } from './types';

export const sessionRepository = {
  async insert(db: Db, userId: number, tokenHash: string, expiresAt: string): Promise<number> {
    return insertedId(await db('sessions')
      .insert({ user_id: userId, token_hash: tokenHash, created_at: nowIso(), expires_at: expiresAt })
      .returning('id'));
  },
  /** The live session for a token hash with its active user, or undefined. */
  async findLive(db: Db, tokenHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const session = await db<SessionRow>('sessions')
      .where({ token_hash: tokenHash })
      .whereNull('revoked_at')
      .where('expires_at', '>', nowIso())
      .first();
    if (!session) return undefined;
    const user = await db<UserRow>('users').where({ id: session.user_id, active: true }).first();
    return user ? { session, user } : undefined;
  },
  revoke: (db: Db, id: number) => db('sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: nowIso() }),
  /** Revokes every session of a user that is not revoked yet (expired ones too) and returns their ids. */
  async revokeAllForUser(db: Db, userId: number): Promise<number[]> {
    const ids = (await db<SessionRow>('sessions').where({ user_id: userId }).whereNull('revoked_at').select('id')).map((r) => r.id);
    if (ids.length) await db('sessions').whereIn('id', ids).update({ revoked_at: nowIso() });
    return ids;
  },
  /** Revokes the live sessions of a user (neither revoked nor expired) and returns their ids. */
  async revokeLiveForUser(db: Db, userId: number): Promise<number[]> {
    const now = nowIso();
    const ids = (await db<SessionRow>('sessions').where({ user_id: userId }).whereNull('revoked_at').where('expires_at', '>', now).select('id')).map((r) => r.id);
    if (ids.length) await db('sessions').whereIn('id', ids).whereNull('revoked_at').update({ revoked_at: now });
    return ids;
  },
};
