import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqliteReader } from '../connection';
import { SlicedRead, sliceHooks } from './readSlices';
import { type Db, clientName } from './types';

/**
 * One call of a report period with one of its assignments (null times without any), as the
 * values in this order: a case appears once per assignment (a call with several units, or
 * reassigned, has several rows), its rows next to each other, so that a report groups them in
 * one pass, holding only the call being read. A tuple, not an object: a year is half a million
 * rows. `capability` is the unit's when dispatched (als, bls, cct, responder; null without an assignment).
 */
export type ReportCallRow = readonly [
  case_id: string, priority: number, call_received_at: string,
  dispatched_at: string | null, en_route_at: string | null, on_scene_at: string | null,
  transporting_at: string | null, at_hospital_at: string | null, cleared_at: string | null,
  capability: string | null,
];

/** An assignment that may have held its ambulance during a period. */
export interface CommitmentRow {
  ambulance_id: number | null;
  license_plate: string;
  dispatched_at: string;
  /** cleared_at, else cancelled_at; null while it is open. */
  ended_at: string | null;
}

export interface FleetRow { id: number; license_plate: string; created_at: string }

/**
 * An arrival at hospital (an assignment whose `at_hospital_at` lies in the period) for the handover
 * report: its destination as kept on the assignment (null without one) and its two times. A tuple, as
 * ReportCallRow, for the same reason.
 */
export type HandoverArrivalRow = readonly [
  hospital_id: number | null, name: string | null, at_hospital_at: string, handover_at: string | null,
];

/**
 * A pre-alert sent in the period, under the hospital it was sent to: its assignment's destination, or,
 * when the unit was sent elsewhere after it, the hospital it went to (by its name now).
 */
export type HandoverPrealertRow = readonly [
  hospital_id: number | null, name: string | null, sent_at: string, acknowledged_at: string | null,
];

/** Rows a PostgreSQL cursor fetches at a time. */
const PG_BATCH = 2000;

/**
 * Runs a read and hands each row to `fn` as the values of `columns`, in order. On PostgreSQL
 * through a cursor. On SQLite the
 * rows are iterated as arrays straight from a better-sqlite3 statement: a year of calls is about
 * half a million rows, and Knex's row objects cost about twice the time (measured for issue 17).
 * Each step of that iteration is synchronous, so the read yields to the event loop after each
 * slice of a few milliseconds (readSlices.ts), and it runs on a read-only connection of its own (openSqliteReader), so
 * that sockets, timers and other requests' queries go on during a report of seconds. Without a
 * file to open (an in-memory database, a transaction) it borrows the pool's connection instead.
 * Once `signal` aborts (the client left) the read stops at the next slice and throws its reason.
 */
async function eachRow(db: Db, query: Knex.QueryBuilder, columns: readonly string[], fn: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
  const read = new SlicedRead(signal);
  if (clientName(db) !== 'better-sqlite3') {
    // PostgreSQL: through a cursor (knex's stream, pg-query-stream), a batch at a time, so that a
    // year's rows never sit in memory together and the event loop turns between batches. Leaving
    // the loop (a client gone) destroys the stream, which closes the cursor.
    let batch = 0;
    for await (const r of query.stream({ batchSize: PG_BATCH }) as AsyncIterable<Record<string, unknown>>) {
      fn(columns.map((c) => r[c]));
      read.rows++;
      if (++batch === PG_BATCH) {
        batch = 0;
        await sliceHooks.afterSlice?.(read.rows, signal);
        read.check();
      }
    }
    return;
  }
  const { sql, bindings } = query.toSQL().toNative();
  const reader = openSqliteReader(db);
  if (reader) {
    try {
      await eachRowInSlices(reader, sql, bindings, fn, read);
    } finally {
      reader.close();
    }
    return;
  }
  const client = db.client as { acquireConnection(): Promise<BetterSqlite3.Database>; releaseConnection(c: BetterSqlite3.Database): Promise<void> };
  const conn = await client.acquireConnection();
  try {
    await eachRowInSlices(conn, sql, bindings, fn, read);
  } finally {
    await client.releaseConnection(conn);
  }
}

async function eachRowInSlices(conn: BetterSqlite3.Database, sql: string, bindings: readonly unknown[], fn: (row: unknown[]) => void, read: SlicedRead) {
  const rows = conn.prepare(sql).raw(true).iterate(...bindings);
  try {
    for (const r of rows) {
      fn(r as unknown[]);
      if (read.row()) await read.next();
    }
  } finally {
    // A read stopped midway (a client gone, an error) frees its statement now, not at the next garbage collection.
    rows.return?.();
  }
}

const CALL_COLUMNS = ['case_id', 'priority', 'call_received_at', 'dispatched_at', 'en_route_at', 'on_scene_at', 'transporting_at', 'at_hospital_at', 'cleared_at', 'capability'] as const;
const COMMITMENT_COLUMNS = ['ambulance_id', 'license_plate', 'dispatched_at', 'ended_at'] as const;
const ARRIVAL_COLUMNS = ['hospital_id', 'name', 'at_hospital_at', 'handover_at'] as const;
const PREALERT_COLUMNS = ['hospital_id', 'name', 'sent_at', 'acknowledged_at'] as const;
/** A pre-alert sent to another hospital than its unit's destination now (the unit re-routed after it). */
const SENT_ELSEWHERE = 'p.hospital_id is not null and (a.destination_hospital_id is null or a.destination_hospital_id <> p.hospital_id)';
const idOrNull = (v: unknown) => (v == null ? null : Number(v));

/** What the reports read: only the columns their figures need, found through the indexes on the times. */
export const reportRepository = {
  /**
   * Each call received in [fromIso, toIso) with each of its assignments, by call time and case
   * (the order of the cases_call_received_at_id index, so no sort), a case's rows one after another.
   */
  eachCallRow: (db: Db, fromIso: string, toIso: string, fn: (row: ReportCallRow) => void, signal?: AbortSignal) =>
    eachRow(
      db,
      db('cases as c')
        .leftJoin('assignments as a', 'a.case_id', 'c.id')
        .where('c.call_received_at', '>=', fromIso).where('c.call_received_at', '<', toIso)
        .orderBy('c.call_received_at').orderBy('c.id')
        .select(
          'c.id as case_id', 'c.priority', 'c.call_received_at',
          'a.dispatched_at', 'a.en_route_at', 'a.on_scene_at', 'a.transporting_at', 'a.at_hospital_at', 'a.cleared_at', 'a.capability',
        ),
      CALL_COLUMNS,
      (r) => {
        if (typeof r[1] !== 'number') r[1] = Number(r[1]);
        fn(r as unknown as ReportCallRow);
      },
      signal,
    ),

  /** When each call of [fromIso, toIso) came in (read from the index alone). */
  eachCallTime: (db: Db, fromIso: string, toIso: string, fn: (callReceivedAt: string) => void, signal?: AbortSignal) =>
    eachRow(db, db('cases').where('call_received_at', '>=', fromIso).where('call_received_at', '<', toIso).select('call_received_at'), ['call_received_at'], (r) => fn(r[0] as string), signal),

  /**
   * Each assignment dispatched before `toIso` that was still open at `fromIso` or ended after it.
   * An assignment ends when it is cleared or cancelled; one open now is open at any time after its dispatch.
   * One row per assignment, never per case: each unit of a call with several is committed for its own
   * dispatch → cleared or cancelled (a unit stood down early is free again while the others stay).
   */
  eachCommitment: (db: Db, fromIso: string, toIso: string, fn: (row: CommitmentRow) => void, signal?: AbortSignal) =>
    eachRow(
      db,
      db('assignments')
        .where('dispatched_at', '<', toIso)
        .where((q) => q.where('cleared_at', '>', fromIso).orWhere('cancelled_at', '>', fromIso).orWhere((o) => o.whereNull('cleared_at').whereNull('cancelled_at')))
        .select('ambulance_id', 'license_plate', 'dispatched_at', db.raw('coalesce(cleared_at, cancelled_at) as ended_at')),
      COMMITMENT_COLUMNS,
      (r) => fn({ ambulance_id: r[0] == null ? null : Number(r[0]), license_plate: r[1] as string, dispatched_at: r[2] as string, ended_at: r[3] as string | null }),
      signal,
    ),

  /**
   * Each assignment that arrived at hospital in [fromIso, toIso) (by the partial index on
   * `at_hospital_at`), in no particular order: the handover report groups by destination.
   */
  eachHandoverArrival: (db: Db, fromIso: string, toIso: string, fn: (row: HandoverArrivalRow) => void, signal?: AbortSignal) =>
    eachRow(
      db,
      db('assignments')
        .where('at_hospital_at', '>=', fromIso).where('at_hospital_at', '<', toIso)
        .select('destination_hospital_id as hospital_id', 'destination_name as name', 'at_hospital_at', 'handover_at'),
      ARRIVAL_COLUMNS,
      (r) => fn([idOrNull(r[0]), r[1] as string | null, r[2] as string, r[3] as string | null]),
      signal,
    ),

  /** Each pre-alert sent in [fromIso, toIso) (by `sent_at`'s index), under the hospital it was sent to (HandoverPrealertRow). */
  eachHandoverPrealert: (db: Db, fromIso: string, toIso: string, fn: (row: HandoverPrealertRow) => void, signal?: AbortSignal) =>
    eachRow(
      db,
      db('prealerts as p')
        .join('assignments as a', 'a.id', 'p.assignment_id')
        .leftJoin('hospitals as h', 'h.id', 'p.hospital_id')
        .where('p.sent_at', '>=', fromIso).where('p.sent_at', '<', toIso)
        .select(
          db.raw(`case when ${SENT_ELSEWHERE} then p.hospital_id else a.destination_hospital_id end as hospital_id`),
          db.raw(`case when ${SENT_ELSEWHERE} then coalesce(h.name, a.destination_name) else a.destination_name end as name`),
          'p.sent_at', 'p.acknowledged_at',
        ),
      PREALERT_COLUMNS,
      (r) => fn([idOrNull(r[0]), r[1] as string | null, r[2] as string, r[3] as string | null]),
      signal,
    ),

  /** The ambulances that existed before `toIso`, with when each was added. */
  fleetBefore: (db: Db, toIso: string): Promise<FleetRow[]> =>
    db('ambulances').where('created_at', '<', toIso).orderBy('id').select('id', 'license_plate', 'created_at'),
};
