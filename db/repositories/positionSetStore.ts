import type { LatestPosition } from './ambulanceRepository';
import type { BatchOutline, NewPosition, PositionStore } from './positionRepository';
import { nowIso } from './types';

/** The transaction's own `pg` connection (knex hands it out inside the transaction). */
export interface PgConnection {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

/*
 * A batch of positions on PostgreSQL in a fixed number of statements, whatever its size: each is a named
 * (prepared once per connection) statement over arrays. Before: one round trip per check and per write
 * of every position, in a transaction holding the batch's row locks all that while.
 */
const LOCK_AND_READ = {
  name: 'positions_lock_read',
  text: 'select id, position_at from ambulances where id = any($1::int[]) order by id for no key update',
};
/**
 * The rows no other transaction holds; the positions of the others are written beside the queue (positionWriter).
 * NO KEY UPDATE, as the UPDATE of the latest position itself takes: it excludes a dispatch's FOR UPDATE and other
 * batches, but not the KEY SHARE locks that rows referencing the ambulance take (a position, an assignment).
 */
const LOCK_FREE_AND_READ = {
  name: 'positions_lock_free_read',
  text: 'select id, position_at from ambulances where id = any($1::int[]) order by id for no key update skip locked',
};
const EXISTING = { name: 'positions_existing', text: 'select id from ambulances where id = any($1::int[])' };
/** A driver link's case while its ambulance is on it (positionRepository's DRIVE_OF, for every driver's ambulance at once). */
const DRIVES = {
  name: 'positions_drives',
  text: `select a.case_id, a.ambulance_id, cases.status from assignments a join cases on cases.id = a.case_id
    where a.ambulance_id = any($1::int[]) and a.status not in ('cleared', 'cancelled')`,
};
const REPORTING = {
  name: 'positions_reporting',
  text: `select ambulance_id, max(recorded_at) as newest from ambulance_positions
    where ambulance_id = any($1::int[]) and recorded_at >= $2 and source <> 'staff' group by ambulance_id`,
};
const STORED_FIXES = {
  name: 'positions_stored_fixes',
  text: `select distinct p.ambulance_id, p.recorded_at from ambulance_positions p
    join unnest($1::int[], $2::text[]) as f(ambulance_id, recorded_at) on p.ambulance_id = f.ambulance_id and p.recorded_at = f.recorded_at`,
};
const INSERT = {
  name: 'positions_insert',
  text: `insert into ambulance_positions (ambulance_id, latitude, longitude, accuracy, heading, speed, recorded_at, received_at, source, battery)
    select * from unnest($1::int[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::text[], $8::text[], $9::text[], $10::float8[])`,
};
/** The same conditional update as ambulanceRepository.setLatestPosition, for each ambulance's newest fix of the batch. */
const SET_LATEST = {
  name: 'positions_set_latest',
  text: `update ambulances a set latitude = v.latitude, longitude = v.longitude, accuracy = v.accuracy, heading = v.heading, speed = v.speed,
      position_at = v.position_at, place_name = v.place_name, position_source = v.position_source, battery = v.battery,
      updated_at = $11, version = a.version + 1
    from unnest($1::int[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::text[], $8::text[], $9::text[], $10::float8[])
      as v(id, latitude, longitude, accuracy, heading, speed, position_at, place_name, position_source, battery)
    where a.id = v.id and (a.position_at is null or a.position_at <= v.position_at)`,
};

/** Every statement of the set store, for the test that plans each on PostgreSQL (hotPathIndexes.test.ts). */
export const SET_STORE_STATEMENTS = {
  lockAndRead: LOCK_AND_READ, lockFreeAndRead: LOCK_FREE_AND_READ, existing: EXISTING, drives: DRIVES,
  reporting: REPORTING, storedFixes: STORED_FIXES, insert: INSERT, setLatest: SET_LATEST,
};

const fixKey = (id: number, recordedAt: string) => `${id} ${recordedAt}`;
const column = <T, K extends keyof T>(rows: T[], key: K) => rows.map((r) => r[key]);

/**
 * The checks of positionWriter's writeOne answered from what `begin` read for the whole batch, and
 * kept true as the batch goes on (a fix stored earlier in the batch is a replay's original, a device's
 * fix earlier in the batch makes the ambulance "reporting", setLatest moves the known latest forward);
 * the writes held back and made in two statements by `finish`. The rows are locked by `begin` until
 * the commit, so what it read stays true. A question `begin` did not foresee is asked of the database.
 */
export function createSetStore(conn: PgConnection, opts: { waitForRows?: boolean } = {}): PositionStore {
  const run = (q: { name: string; text: string }, values: unknown[]) => conn.query({ ...q, values }).then((r) => r.rows);
  const latestAt = new Map<number, string | null>();
  const drives = new Map<number, { caseId: string; status: string }>();
  let drivesRead = new Set<number>();
  /** Per ambulance, the newest non-staff fix at or after `reportingFrom`. */
  const reportingNewest = new Map<number, string>();
  let reportingFrom: string | undefined;
  let reportingIds = new Set<number>();
  /** Fixes known stored (read by begin, or written in this batch) and fixes known not stored. */
  const stored = new Set<string>();
  const askedFixes = new Set<string>();
  const rows: NewPosition[] = [];
  const latest = new Map<number, LatestPosition>();

  return {
    async begin(outlineOf: () => BatchOutline) {
      const outline = outlineOf();
      const ids = [...new Set(outline.ambulanceIds)].sort((a, b) => a - b);
      if (!ids.length) return [];
      for (const r of await run(opts.waitForRows ? LOCK_AND_READ : LOCK_FREE_AND_READ, [ids])) latestAt.set(Number(r.id), (r.position_at as string | null) ?? null);
      // Not locked: no such ambulance (writeOne refuses it), or a row another transaction holds.
      const missing = ids.filter((id) => !latestAt.has(id));
      const busy = missing.length ? (await run(EXISTING, [missing])).map((r) => Number(r.id)) : [];
      const driverIds = [...new Set(outline.driverAmbulanceIds)].filter((id) => latestAt.has(id));
      if (driverIds.length) {
        for (const r of await run(DRIVES, [driverIds])) drives.set(Number(r.ambulance_id), { caseId: String(r.case_id), status: String(r.status) });
        drivesRead = new Set(driverIds);
      }
      const staffIds = [...new Set(outline.staff.ambulanceIds)].filter((id) => latestAt.has(id));
      if (staffIds.length) {
        for (const r of await run(REPORTING, [staffIds, outline.staff.sinceIso])) reportingNewest.set(Number(r.ambulance_id), String(r.newest));
        reportingFrom = outline.staff.sinceIso;
        reportingIds = new Set(staffIds);
      }
      // Only a fix not newer than the ambulance's latest can be stored already (this writer alone moves the latest forward).
      const candidates = outline.datedFixes.filter((f) => {
        const at = latestAt.get(f.ambulanceId);
        return at != null && f.recordedAt <= at;
      });
      if (candidates.length) {
        for (const r of await run(STORED_FIXES, [column(candidates, 'ambulanceId'), column(candidates, 'recordedAt')])) {
          stored.add(fixKey(Number(r.ambulance_id), String(r.recorded_at)));
        }
        for (const f of candidates) askedFixes.add(fixKey(f.ambulanceId, f.recordedAt));
      }
      return busy;
    },

    async latestFixOf(id) {
      if (!latestAt.has(id)) {
        const [r] = await run(LOCK_AND_READ, [[id]]);
        if (!r) return undefined;
        latestAt.set(id, (r.position_at as string | null) ?? null);
      }
      return { position_at: latestAt.get(id)! };
    },

    async driveOf(caseId, ambulanceId) {
      if (!drivesRead.has(ambulanceId)) {
        const [r] = await run(DRIVES, [[ambulanceId]]);
        if (r) drives.set(ambulanceId, { caseId: String(r.case_id), status: String(r.status) });
        drivesRead.add(ambulanceId);
      }
      const d = drives.get(ambulanceId);
      return d && d.caseId === caseId ? { status: d.status } : undefined;
    },

    async reportingSince(id, sinceIso) {
      if (!reportingIds.has(id) || reportingFrom === undefined || sinceIso < reportingFrom) {
        const [r] = await run(REPORTING, [[id], sinceIso]);
        return r !== undefined || (reportingNewest.get(id) ?? '') >= sinceIso;
      }
      return (reportingNewest.get(id) ?? '') >= sinceIso;
    },

    async hasFix(id, recordedAt) {
      const key = fixKey(id, recordedAt);
      if (stored.has(key)) return true;
      if (askedFixes.has(key)) return false;
      const found = (await run(STORED_FIXES, [[id], [recordedAt]])).length > 0;
      askedFixes.add(key);
      if (found) stored.add(key);
      return found;
    },

    insert(row) {
      rows.push(row);
      stored.add(fixKey(row.ambulance_id, row.recorded_at));
      if (row.source !== 'staff' && row.recorded_at > (reportingNewest.get(row.ambulance_id) ?? '')) reportingNewest.set(row.ambulance_id, row.recorded_at);
    },

    setLatest(id, p) {
      const at = latestAt.get(id);
      if (!latestAt.has(id) || (at !== null && at! > p.position_at)) return 0;
      latestAt.set(id, p.position_at);
      latest.set(id, p);
      return 1;
    },

    async finish() {
      if (rows.length) {
        await run(INSERT, [column(rows, 'ambulance_id'), column(rows, 'latitude'), column(rows, 'longitude'), column(rows, 'accuracy'),
          column(rows, 'heading'), column(rows, 'speed'), column(rows, 'recorded_at'), column(rows, 'received_at'), column(rows, 'source'), column(rows, 'battery')]);
      }
      if (latest.size) {
        const ids = [...latest.keys()];
        const ps = [...latest.values()];
        await run(SET_LATEST, [ids, column(ps, 'latitude'), column(ps, 'longitude'), column(ps, 'accuracy'), column(ps, 'heading'), column(ps, 'speed'),
          column(ps, 'position_at'), column(ps, 'place_name'), column(ps, 'position_source'), column(ps, 'battery'), nowIso()]);
      }
      rows.length = 0;
      latest.clear();
    },
  };
}
