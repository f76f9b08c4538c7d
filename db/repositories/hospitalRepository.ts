import { type Db, type HospitalRow, insertedId, nowIso, rowLocks } from './types';

export interface HospitalFields {
  name?: string; address?: string; latitude?: number; longitude?: number; capabilities?: readonly string[];
  status?: string; status_reason?: string | null; status_updated_by?: string | null;
}

const columns = (f: HospitalFields) => {
  const { capabilities, ...rest } = f;
  return { ...rest, ...(capabilities ? { capabilities: JSON.stringify(capabilities) } : {}) };
};

export const hospitalRepository = {
  list: (db: Db) => db<HospitalRow>('hospitals').orderBy('name').orderBy('id'),
  findById: (db: Db, id: number) => db<HospitalRow>('hospitals').where({ id }).first(),
  /** The hospital a page's link token opens: its hash matches the one link made last. */
  findByLink: (db: Db, id: number, linkHash: string) => db<HospitalRow>('hospitals').where({ id, link_hash: linkHash }).first(),
  lock: async (db: Db, id: number) => { if (rowLocks(db)) await db('hospitals').where({ id }).forUpdate().select('id'); },
  count: async (db: Db) => Number((await db('hospitals').count({ n: '*' }).first())?.n ?? 0),
  async insert(db: Db, f: HospitalFields & { name: string; latitude: number; longitude: number }): Promise<number> {
    const now = nowIso();
    return insertedId(await db('hospitals').insert({ ...columns(f), status_updated_at: now, version: 1, created_at: now, updated_at: now }).returning('id'));
  },
  /** Writes the fields; a status or its reason stamps when (and by whom, in `f`) it was set. */
  update: (db: Db, id: number, f: HospitalFields) => {
    const now = nowIso();
    const statusTouched = f.status !== undefined || f.status_reason !== undefined;
    return db('hospitals').where({ id }).update({
      ...columns(f), ...(statusTouched ? { status_updated_at: now } : {}), updated_at: now, version: db.raw('version + 1'),
    });
  },
  /** A new link's hash replaces the old one, which stops working at once. */
  setLink: (db: Db, id: number, linkHash: string) => db('hospitals').where({ id }).update({ link_hash: linkHash, link_issued_at: nowIso() }),
  remove: (db: Db, id: number) => db('hospitals').where({ id }).delete(),
};
