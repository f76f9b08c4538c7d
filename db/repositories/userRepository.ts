import { type Db, type UserRow, insertedId, nowIso, rowLocks } from './types';

export type UserFields = Pick<UserRow, 'name' | 'email' | 'phone' | 'address' | 'role' | 'shift' | 'gender' | 'location'> & { active?: boolean };

const derived = (f: UserFields) => ({
  name_key: f.name.trim().toLowerCase(),
  phone_digits: f.phone ? f.phone.replace(/\D/g, '') || null : null,
});

export const userRepository = {
  findById: (db: Db, id: number) => db<UserRow>('users').where({ id }).first(),
  /** Locks the user's row until the transaction ends (serialises that user's writes on Postgres). */
  lock: async (db: Db, id: number) => { if (rowLocks(db)) await db('users').where({ id }).forUpdate().select('id'); },
  findByEmail: (db: Db, email: string) => db<UserRow>('users').where({ email: email.toLowerCase() }).first(),
  findForSignIn: (db: Db, email: string, nameKey: string, phoneDigits: string) =>
    db<UserRow>('users')
      .where({ email: email.toLowerCase(), name_key: nameKey, phone_digits: phoneDigits, active: true })
      .first(),
  listByRole: (db: Db, role: UserRow['role']) => db<UserRow>('users').where({ role }).orderBy('id'),
  count: async (db: Db) => Number((await db('users').count({ n: '*' }).first())?.n ?? 0),
  async insert(db: Db, fields: UserFields): Promise<number> {
    const now = nowIso();
    return insertedId(await db('users')
      .insert({ ...fields, ...derived(fields), active: fields.active ?? true, version: 1, created_at: now, updated_at: now })
      .returning('id'));
  },
  /** `active` absent leaves the account's state as it is. */
  update: (db: Db, id: number, { active, ...fields }: UserFields) =>
    db('users').where({ id }).update({
      ...fields, ...derived(fields), ...(active === undefined ? {} : { active }), updated_at: nowIso(), version: db.raw('version + 1'),
    }),
  delete: (db: Db, id: number) => db('users').where({ id }).delete(),
};
