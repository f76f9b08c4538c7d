import { plateKey } from './plateKey';
import { type AmbulanceRow, type Db, insertedId, nowIso, rowLocks, fetched } from './types';

export { plateKey };

/** A write met another ambulance's plate key at the UNIQUE index (a concurrent writer got there first). */
export class PlateTakenError extends Error {
  constructor() { super('Another ambulance holds this plate key'); }
}

const isPlateKeyViolation = (err: unknown) => {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return /plate_key/.test(e.constraint ?? e.message ?? '');
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' && /ambulances\.plate_key/.test(e.message ?? '');
};

/**
 * Runs a write that sets a plate key in a savepoint: a unique violation of the key becomes
 * PlateTakenError, and the caller's transaction stays usable (PostgreSQL aborts a transaction
 * on any failed statement otherwise).
 */
async function plateWrite<T>(db: Db, write: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(write);
  } catch (err) {
    if (isPlateKeyViolation(err)) throw new PlateTakenError();
    throw err;
  }
}

export interface AmbulanceFields {
  license_plate?: string;
  status?: string;
  driver_email?: string | null;
  capability?: string;
  latitude?: number | null;
  longitude?: number | null;
  place_name?: string | null;
}

export interface LatestPosition {
  latitude: number; longitude: number; accuracy: number | null; heading: number | null; speed: number | null;
  position_at: string; place_name: string | null; position_source: string; battery: number | null;
}

/** Row locks exist on PostgreSQL; SQLite runs one connection, so its write transactions never overlap. */

const withKey = (f: AmbulanceFields) => (f.license_plate ? { ...f, plate_key: plateKey(f.license_plate) } : f);
const bump = (db: Db) => ({ updated_at: nowIso(), version: db.raw('version + 1') });

/** The time of the open assignment's current step (each step has its own column). */
const STEP_AT = `case a.status ${['dispatched', 'en_route', 'on_scene', 'transporting', 'at_hospital', 'handover'].map((s) => `when '${s}' then a.${s}_at`).join(' ')} end`;

/** Ambulances with their open assignment's step (the unit status) joined. */
const withUnitStep = (db: Db) =>
  db<AmbulanceRow>('ambulances')
    .leftJoin('assignments as a', (j) => j.on('a.ambulance_id', 'ambulances.id').onNotIn('a.status', ['cleared', 'cancelled']))
    .select('ambulances.*', 'a.status as unit_step', db.raw(`${STEP_AT} as unit_step_at`));

export const ambulanceRepository = {
  list: (db: Db) => fetched<AmbulanceRow[]>(withUnitStep(db).orderBy('ambulances.id')),
  findById: (db: Db, id: number) => fetched<AmbulanceRow | undefined>(withUnitStep(db).where('ambulances.id', id).first()),
  findByPlate: (db: Db, plate: string) => db<AmbulanceRow>('ambulances').where({ plate_key: plateKey(plate) }).first(),
  /** Locks an ambulance's row until the transaction ends (concurrent writers of it wait). */
  lock: async (db: Db, id: number) => { if (rowLocks(db)) await db('ambulances').where({ id }).forUpdate().select('id'); },
  count: async (db: Db) => Number((await db('ambulances').count({ n: '*' }).first())?.n ?? 0),
  /** Throws PlateTakenError when another ambulance holds the plate's key. */
  async insert(db: Db, fields: AmbulanceFields & { license_plate: string }): Promise<number> {
    const now = nowIso();
    const located = fields.latitude != null && fields.longitude != null;
    return insertedId(await plateWrite(db, (w) => w('ambulances')
      .insert({ ...withKey(fields), position_at: located ? now : null, version: 1, created_at: now, updated_at: now })
      .returning('id')));
  },
  /** Throws PlateTakenError when the new plate's key is another ambulance's. */
  update: (db: Db, id: number, fields: AmbulanceFields) => {
    const write = (w: Db) => w('ambulances').where({ id }).update({ ...withKey(fields), ...bump(w) });
    return fields.license_plate ? plateWrite(db, write) : write(db);
  },
  /** Marks the ambulance busy only if it is available right now; 1 when it was claimed, 0 otherwise. */
  claimIfAvailable: (db: Db, id: number) =>
    db('ambulances').where({ id, status: 'available' }).update({ status: 'busy', ...bump(db) }),
  /** Frees a busy ambulance (no-op for one in maintenance or already available). */
  release: (db: Db, id: number) =>
    db('ambulances').where({ id, status: 'busy' }).update({ status: 'available', ...bump(db) }),
  /** Moves the latest position only forward in time: an older fix never overwrites a newer one. */
  setLatestPosition: (db: Db, id: number, p: LatestPosition) =>
    db('ambulances')
      .where({ id })
      .andWhere((q) => q.whereNull('position_at').orWhere('position_at', '<=', p.position_at))
      .update({ ...p, ...bump(db) }),
  delete: (db: Db, id: number) => db('ambulances').where({ id }).delete(),
  /** Dates the ambulances' addition back (demo history: the fleet existed through the calls it served). */
  setCreatedAt: (db: Db, ids: number[], iso: string) => db('ambulances').whereIn('id', ids).update({ created_at: iso }),
  /**
   * Gives the ambulance a new device secret's hash, replacing any earlier one (which stops
   * matching at once); 1 when the ambulance exists, 0 otherwise. Not a change of the ambulance
   * clients see: no version bump.
   */
  setDevice: (db: Db, id: number, hash: string, issuedAt: string) =>
    db('ambulances').where({ id }).update({ device_hash: hash, device_issued_at: issuedAt }),
  /** The ambulance whose device secret hashes to `hash`. */
  findIdByDeviceHash: async (db: Db, hash: string): Promise<number | undefined> =>
    (await db<AmbulanceRow>('ambulances').where({ device_hash: hash }).first('id'))?.id,
  /** A new version of the row for a change that lives beside it (its assignment's step), so clients take the event. */
  touch: (db: Db, id: number) => db('ambulances').where({ id }).update(bump(db)),
};
