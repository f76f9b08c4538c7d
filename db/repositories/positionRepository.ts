import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import { ambulanceRepository, type LatestPosition } from './ambulanceRepository';
import { type PgConnection, createSetStore } from './positionSetStore';
import { type Db, type PositionRow, nowIso, rowLocks } from './types';

export type NewPosition = Omit<PositionRow, 'id'>;

/**
 * What the position writer needs inside its one transaction per batch. Every call may answer
 * a value or a promise: on SQLite they are prepared better-sqlite3 statements run on the
 * transaction's own connection (Knex prepares every query again and costs about 20× more per
 * position, BENCHMARKS.md); on PostgreSQL the set store (positionSetStore.ts) reads what the whole
 * batch's checks need in `begin` and writes its rows and latest positions in `finish`, a fixed number
 * of statements per batch. The Knex store (one query per call) is the reference the bench and tests
 * compare with.
 */
export interface PositionStore {
  /**
   * Before the batch's checks: locks the ambulances' rows in id order (PostgreSQL; SQLite serialises
   * writers anyway) and may read at once what the checks below will ask of the whole batch (`outline`,
   * made only by a store that reads ahead: SQLite's prepared statements need none). A store
   * that does not wait for rows held by other transactions answers their ambulances' ids: their
   * positions are not written in this transaction.
   */
  begin(outline: () => BatchOutline): Promise<number[] | void> | void;
  /** The ambulance's latest fix time (undefined: no such ambulance). */
  latestFixOf(id: number): Promise<{ position_at: string | null } | undefined> | { position_at: string | null } | undefined;
  /** The case's status when the ambulance is still on it (an open assignment), for a driver link's check; undefined otherwise. */
  driveOf(caseId: string, ambulanceId: number): Promise<{ status: string } | undefined> | { status: string } | undefined;
  /** Whether the ambulance itself (its driver link or a device, anything but staff) sent a fix taken at or after `sinceIso`. */
  reportingSince(id: number, sinceIso: string): Promise<boolean> | boolean;
  /** Whether the history already holds a fix of this ambulance taken at exactly `recordedAt` (a replay). */
  hasFix(id: number, recordedAt: string): Promise<boolean> | boolean;
  /** Its answer (a promise or not) is awaited and otherwise unused. */
  insert(row: NewPosition): unknown;
  /** Moves the latest position forward unless it holds a newer fix: 1 when it did, 0 otherwise. */
  setLatest(id: number, p: LatestPosition): Promise<number> | number;
  /** After the batch's checks: writes what insert and setLatest were given, where the store held it back to write it at once. */
  finish(): Promise<void> | void;
}

/** What a batch's checks will ask, known before they run: which ambulances, which drives, who needs the staff check, which fixes may be replays. */
export interface BatchOutline {
  ambulanceIds: number[];
  /** Ambulances whose driver links sent positions (driveOf will be asked for them). */
  driverAmbulanceIds: number[];
  /** Ambulances staff sent positions for, and the earliest time the staff check will ask about. */
  staff: { ambulanceIds: number[]; sinceIso: string };
  /** Dated fixes (a fix dated by its device may be a replay). */
  datedFixes: { ambulanceId: number; recordedAt: string }[];
}

interface Prepared {
  ambulance: BetterSqlite3.Statement;
  driveOf: BetterSqlite3.Statement;
  reporting: BetterSqlite3.Statement;
  hasFix: BetterSqlite3.Statement;
  insert: BetterSqlite3.Statement;
  latest: BetterSqlite3.Statement;
}
const preparedBy = new WeakMap<BetterSqlite3.Database, Prepared>();

/** A driver link's case while its ambulance is on it: by the open-assignment index of the ambulance. */
const DRIVE_OF = `select cases.status from assignments a join cases on cases.id = a.case_id
  where a.case_id = ? and a.ambulance_id = ? and a.status not in ('cleared', 'cancelled') limit 1`;

function prepare(conn: BetterSqlite3.Database): Prepared {
  let p = preparedBy.get(conn);
  if (!p) {
    p = {
      ambulance: conn.prepare('select position_at from ambulances where id = ?'),
      driveOf: conn.prepare(DRIVE_OF),
      reporting: conn.prepare(`select 1 from ambulance_positions where ambulance_id = ? and recorded_at >= ? and source <> 'staff' limit 1`),
      hasFix: conn.prepare('select 1 from ambulance_positions where ambulance_id = ? and recorded_at = ? limit 1'),
      insert: conn.prepare(`insert into ambulance_positions (ambulance_id, latitude, longitude, accuracy, heading, speed, recorded_at, received_at, source, battery)
        values (@ambulance_id, @latitude, @longitude, @accuracy, @heading, @speed, @recorded_at, @received_at, @source, @battery)`),
      // The same conditional update as ambulanceRepository.setLatestPosition.
      latest: conn.prepare(`update ambulances set latitude = @latitude, longitude = @longitude, accuracy = @accuracy, heading = @heading,
        speed = @speed, position_at = @position_at, place_name = @place_name, position_source = @position_source, battery = @battery, updated_at = @updated_at, version = version + 1
        where id = @id and (position_at is null or position_at <= @position_at)`),
    };
    preparedBy.set(conn, p);
  }
  return p;
}

export const positionRepository = {
  insert: (db: Db, rows: NewPosition[]) => db('ambulance_positions').insert(rows),

  /** The store for one write transaction (see PositionStore). */
  async store(trx: Knex.Transaction, opts: { waitForRows?: boolean } = {}): Promise<PositionStore> {
    if (rowLocks(trx)) return positionRepository.setStore(trx, opts);
    // The transaction's connection: the statements run inside its BEGIN … COMMIT.
    return positionRepository.preparedStore(await (trx.client as { acquireConnection(): Promise<BetterSqlite3.Database> }).acquireConnection());
  },
  /** The store as prepared better-sqlite3 statements on `conn` (SQLite); the caller runs them in its transaction. */
  preparedStore(conn: BetterSqlite3.Database): PositionStore {
    const p = prepare(conn);
    return {
      begin: () => {},
      finish: () => {},
      latestFixOf: (id) => p.ambulance.get(id) as { position_at: string | null } | undefined,
      driveOf: (caseId, ambulanceId) => p.driveOf.get(caseId, ambulanceId) as { status: string } | undefined,
      reportingSince: (id, sinceIso) => p.reporting.get(id, sinceIso) !== undefined,
      hasFix: (id, recordedAt) => p.hasFix.get(id, recordedAt) !== undefined,
      insert: (row) => p.insert.run(row),
      setLatest: (id, l) => p.latest.run({ ...l, id, updated_at: nowIso() }).changes,
    };
  },
  /** The store as Knex queries in `trx` (PostgreSQL, with row locks). */
  knexStore(trx: Knex.Transaction): PositionStore {
    return {
      begin: async (outline) => {
        const { ambulanceIds } = outline();
        if (ambulanceIds.length && rowLocks(trx)) await trx('ambulances').whereIn('id', [...new Set(ambulanceIds)].sort((a, b) => a - b)).orderBy('id').forUpdate().select('id');
      },
      finish: () => {},
      latestFixOf: (id) => trx('ambulances').where({ id }).first('position_at'),
      driveOf: async (caseId, ambulanceId) => (await trx.raw<{ rows: { status: string }[] }>(DRIVE_OF, [caseId, ambulanceId])).rows[0],
      reportingSince: async (id, sinceIso) =>
        (await trx('ambulance_positions').where({ ambulance_id: id }).where('recorded_at', '>=', sinceIso).whereNot('source', 'staff').first('id')) !== undefined,
      hasFix: async (id, recordedAt) => (await trx('ambulance_positions').where({ ambulance_id: id, recorded_at: recordedAt }).first('id')) !== undefined,
      insert: (row) => trx('ambulance_positions').insert(row),
      setLatest: (id, l) => ambulanceRepository.setLatestPosition(trx, id, l),
    };
  },

  /** The store as set-based statements for a whole batch on PostgreSQL (positionSetStore.ts). */
  async setStore(trx: Knex.Transaction, opts: { waitForRows?: boolean } = {}): Promise<PositionStore> {
    return createSetStore(await (trx.client as { acquireConnection(): Promise<PgConnection> }).acquireConnection(), opts);
  },

  /** The recent trail, oldest first: fixes since `sinceIso`, at most the newest `limit`. */
  async trail(db: Db, ambulanceId: number, sinceIso: string, limit: number) {
    const rows = await db<PositionRow>('ambulance_positions')
      .where({ ambulance_id: ambulanceId }).where('recorded_at', '>=', sinceIso)
      .orderBy('recorded_at', 'desc').limit(limit)
      .select('latitude', 'longitude', 'recorded_at');
    return rows.reverse().map((r) => ({ latitude: Number(r.latitude), longitude: Number(r.longitude), recorded_at: r.recorded_at }));
  },
  /**
   * Deletes up to `limit` positions recorded before `cutoffIso`, except those recorded within a case of
   * that ambulance (from its creation to its close) that is still open or closed since the cutoff.
   */
  async deleteHistoryBefore(db: Db, cutoffIso: string, limit: number): Promise<number> {
    const ids = await db('ambulance_positions as p')
      .where('p.recorded_at', '<', cutoffIso)
      .whereNotExists(db('cases as c')
        .whereRaw('c.ambulance_id = p.ambulance_id')
        .whereRaw('c.created_at <= p.recorded_at')
        .where((q) => q.whereNull('c.closed_at').orWhereRaw('p.recorded_at <= c.closed_at'))
        .where((q) => q.whereNotIn('c.status', ['closed', 'resolved']).orWhereNull('c.closed_at').orWhere('c.closed_at', '>=', cutoffIso)))
      .limit(limit).pluck('p.id') as number[];
    return ids.length ? db('ambulance_positions').whereIn('id', ids).delete() : 0;
  },
  recentForAmbulance: (db: Db, ambulanceId: number, limit: number) =>
    db<PositionRow>('ambulance_positions').where({ ambulance_id: ambulanceId })
      .orderBy('recorded_at', 'desc').limit(limit),
};
