import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshPostgresUrl, onPostgresPass } from '../../realtime-server/testing/testEngine';
import { openDatabase } from '../connection';
import { MAX_ROWS_PER_SLICE } from './readSlices';
import { reportRepository } from './reportRepository';

/**
 * A long report read lets the event loop turn and leaves other queries a connection: on SQLite
 * better-sqlite3 reads synchronously, and half a million rows read in one go would hold every
 * socket and timer for seconds (and the pool's one connection); on PostgreSQL a cursor reads a
 * batch at a time. On the PostgreSQL pass it runs on a fresh schema.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-report-read-'));
let db: Knex;
let url: string;
const CALLS = MAX_ROWS_PER_SLICE * 3 + 17;
const FROM = '2026-10-01T00:00:00.000Z';
const TO = '2026-10-02T00:00:00.000Z';

describe('reportRepository', () => {
  beforeAll(async () => {
    url = onPostgresPass() ? await freshPostgresUrl('t') : path.join(dir, 'db.sqlite');
    db = openDatabase(url);
    await db.migrate.latest();
    const at = (i: number) => new Date(Date.parse(FROM) + i * 10_000).toISOString();
    const rows = Array.from({ length: CALLS }, (_, i) => ({
      id: `case-${String(i).padStart(6, '0')}`, description: 'Read test', status: 'pending', patient_name: 'Read', patient_email: 'read@example.com',
      created_at: at(i), updated_at: at(i), priority: 1 + (i % 4), call_received_at: at(i),
    }));
    for (let i = 0; i < rows.length; i += 500) await db('cases').insert(rows.slice(i, i + 500));
    // One assignment each (a call's row stays one row), for the commitments read.
    const assignments = rows.map((c, i) => ({ case_id: c.id, license_plate: 'KA01 A 1', status: 'cleared', dispatched_at: at(i), cleared_at: at(i + 3) }));
    for (let i = 0; i < assignments.length; i += 500) await db('assignments').insert(assignments.slice(i, i + 500));
  });
  afterAll(async () => {
    await db?.destroy();
    if (onPostgresPass()) await dropSchema(url);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads every call of the period in call order, turning the event loop between slices of rows', async () => {
    const seen: string[] = [];
    const turns: number[] = [];
    let waiting = true;
    const tick = () => {
      turns.push(seen.length);
      if (waiting) setImmediate(tick);
    };
    setImmediate(tick);
    await reportRepository.eachCallRow(db, FROM, TO, (r) => seen.push(r[0]));
    waiting = false;
    expect(seen).toHaveLength(CALLS);
    expect(seen).toEqual([...seen].sort());
    // Timers ran while the rows were read, not only before the first and after the last.
    expect(turns.filter((n) => n > 0 && n < CALLS).length).toBeGreaterThanOrEqual(2);
  });

  it('stops at the end of the slice in which its signal aborts (the client left), with the signal\'s reason', async () => {
    // Before: the signal was not looked at and all the period's rows were read for nobody.
    for (const read of [
      (fn: () => void, signal: AbortSignal) => reportRepository.eachCallRow(db, FROM, TO, fn, signal),
      (fn: () => void, signal: AbortSignal) => reportRepository.eachCallTime(db, FROM, TO, fn, signal),
      (fn: () => void, signal: AbortSignal) => reportRepository.eachCommitment(db, '2000-01-01T00:00:00.000Z', TO, fn, signal),
    ]) {
      const ac = new AbortController();
      let seen = 0;
      const gone = new Error('client left');
      await expect(read(() => { if (++seen === 10) ac.abort(gone); }, ac.signal)).rejects.toBe(gone);
      expect(seen).toBeLessThanOrEqual(MAX_ROWS_PER_SLICE);
    }
    // A signal aborted before the read: not a row read.
    const ac = new AbortController();
    ac.abort(new Error('already gone'));
    let seen = 0;
    await expect(reportRepository.eachCallTime(db, FROM, TO, () => { seen++; }, ac.signal)).rejects.toThrow('already gone');
    expect(seen).toBe(0);
  });

  // PostgreSQL's pool has several connections: the read takes one of them.
  it.skipIf(onPostgresPass())('leaves SQLite\'s one pool connection free meanwhile: another query answers before the read ends', async () => {
    let seen = 0;
    let answeredAt = -1;
    setImmediate(() => void db('cases').count({ n: '*' }).then(() => { answeredAt = seen; }));
    await reportRepository.eachCallRow(db, FROM, TO, () => { seen++; });
    expect(seen).toBe(CALLS);
    expect(answeredAt).toBeGreaterThan(0);
    expect(answeredAt).toBeLessThan(CALLS);
  });

  it('reads on the pool\'s connection inside a transaction, which sees its own writes', async () => {
    await db.transaction(async (trx) => {
      await trx('cases').insert({
        id: 'case-in-trx', description: 'Read test', status: 'pending', patient_name: 'Read', patient_email: 'read@example.com',
        created_at: FROM, updated_at: FROM, priority: 1, call_received_at: FROM,
      });
      const ids: string[] = [];
      await reportRepository.eachCallRow(trx, FROM, TO, (r) => ids.push(r[0]));
      expect(ids).toContain('case-in-trx');
      expect(ids).toHaveLength(CALLS + 1);
      throw new Error('roll back');
    }).catch((err: Error) => expect(err.message).toBe('roll back'));
  });
});
