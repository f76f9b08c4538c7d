import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryLog } from '../realtime-server/testing/memoryLog';
import { openDatabase } from './connection';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, type CheckpointReport, startCheckpointer } from './sqliteCheckpointer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-checkpoint-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const autocheckpoint = async (db: ReturnType<typeof openDatabase>) => Object.values((await db.raw('pragma wal_autocheckpoint'))[0])[0];

describe('the WAL checkpoint worker (SQLite)', () => {
  it('copies the WAL into the database off the event loop while the server connection only keeps a backstop', async () => {
    const file = path.join(dir, 'ckpt.sqlite');
    const db = openDatabase(file);
    const { log, entries } = memoryLog('warn');
    try {
      await db.schema.createTable('t', (t) => { t.increments('id'); t.string('v'); });
      const reports: CheckpointReport[] = [];
      const ckpt = await startCheckpointer(db, file, log, { intervalMs: 20, onCheckpoint: (r) => reports.push(r) });
      expect(await autocheckpoint(db)).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
      // Some hundred pages of WAL, in 20 commits.
      for (let i = 0; i < 20; i++) await db('t').insert(Array.from({ length: 100 }, () => ({ v: 'x'.repeat(300) })));
      const deadline = Date.now() + 10_000;
      while (!reports.some((r) => r.log > 0 && r.checkpointed === r.log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(reports.find((r) => r.checkpointed === r.log)).toMatchObject({ busy: 0 });
      await ckpt.stop();
      expect(await autocheckpoint(db)).toBe(1000);
      expect(Number((await db('t').count({ n: '*' }).first())!.n)).toBe(2000);
      expect(entries()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('hands checkpoints back to the server connection when the worker fails', async () => {
    const file = path.join(dir, 'failing.sqlite');
    const db = openDatabase(file);
    const { log, entries } = memoryLog('warn');
    try {
      await db.raw('select 1');
      // The worker opens its file with fileMustExist: one that does not exist makes it fail at once.
      const ckpt = await startCheckpointer(db, path.join(dir, 'missing', 'nothing.sqlite'), log, { intervalMs: 20 });
      const deadline = Date.now() + 10_000;
      while (!entries().some((e) => e.msg?.includes('checkpoint worker stopped')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(entries().map((e) => e.msg)).toContain('the checkpoint worker stopped: the server checkpoints the WAL itself again');
      await new Promise((r) => setTimeout(r, 50));
      expect(await autocheckpoint(db)).toBe(1000);
      await ckpt.stop();
    } finally {
      await db.destroy();
    }
  });

  it('starts no worker for an in-memory database', async () => {
    const db = openDatabase(':memory:');
    try {
      const ckpt = await startCheckpointer(db, ':memory:', memoryLog().log);
      expect(await autocheckpoint(db)).toBe(1000);
      await ckpt.stop();
    } finally {
      await db.destroy();
    }
  });
});
