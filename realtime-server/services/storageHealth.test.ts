import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../http/middleware/errors';
import { memoryLog } from '../testing/memoryLog';
import { StorageHealth, storageFailureCode } from './storageHealth';

/**
 * Which failures mean "the database cannot write" (health turns 503), and how the state
 * clears: only a write probe that succeeded after the last failure, run at most every
 * couple of seconds and once at a time. The end-to-end proofs on a real full SQLite file and
 * on PostgreSQL's own error codes are in http/routes/health.test.ts.
 */

const silent = pino({ level: 'silent' });
const failure = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

describe('storageFailureCode', () => {
  it.each([
    'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED',
    'SQLITE_CANTOPEN', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_NOTADB',
    '53100', '53200', '53300', '53400', '58000', '58030', '58P01', '25006',
  ])('%s is a storage failure', (code) => {
    expect(storageFailureCode(failure(code))).toBe(code);
  });

  it.each([
    'SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_BUSY', 'SQLITE_FULLX', 'XSQLITE_FULL',
    '23505', '40001', '40P01', '42P01', '25P02', '57014', 'ECONNREFUSED', 'ENOSPC',
  ])('%s is not', (code) => {
    expect(storageFailureCode(failure(code))).toBeUndefined();
  });

  it('nor is anything without a code', () => {
    for (const e of [new Error('x'), undefined, null, 'SQLITE_FULL', { code: 42 }]) expect(storageFailureCode(e)).toBeUndefined();
  });
});

describe('StorageHealth', () => {
  function harness(probe: () => Promise<void>) {
    const clock = { now: 1_000_000 };
    const h = new StorageHealth({ log: silent, probe, probeEveryMs: 2000, now: () => clock.now });
    return { h, clock };
  }

  it('is healthy until a storage failure; other errors change nothing; no probe runs while healthy', async () => {
    let probes = 0;
    const { h } = harness(async () => { probes++; });
    expect(await h.check()).toBeUndefined();
    expect(h.writeFailed(failure('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(await h.check()).toBeUndefined();
    expect(probes).toBe(0);
    expect(h.writeFailed(failure('SQLITE_FULL'))).toBe(true);
    expect(h.failure).toMatchObject({ code: 'SQLITE_FULL' });
  });

  it('a failing probe keeps the state, at most one probe every probeEveryMs; a succeeding one clears it', async () => {
    let ok = false;
    let probes = 0;
    const { h, clock } = harness(async () => {
      probes++;
      if (!ok) { h.writeFailed(failure('SQLITE_IOERR_WRITE')); throw failure('SQLITE_IOERR_WRITE'); }
    });
    h.writeFailed(failure('SQLITE_FULL'));
    expect(await h.check()).toMatchObject({ code: 'SQLITE_IOERR_WRITE' }); // the probe's own, newer cause
    expect(probes).toBe(1);
    clock.now += 1999;
    expect(await h.check()).toMatchObject({ code: 'SQLITE_IOERR_WRITE' });
    expect(probes).toBe(1);
    ok = true;
    expect(await h.check()).toBeDefined(); // not yet due
    clock.now += 1;
    expect(await h.check()).toBeUndefined();
    expect(probes).toBe(2);
    expect(h.failure).toBeUndefined();
  });

  it('concurrent checks share one probe', async () => {
    let probes = 0;
    let release!: () => void;
    const { h } = harness(() => { probes++; return new Promise<void>((r) => { release = r; }); });
    h.writeFailed(failure('53100'));
    const checks = [h.check(), h.check(), h.check()];
    release();
    expect(await Promise.all(checks)).toEqual([undefined, undefined, undefined]);
    expect(probes).toBe(1);
  });

  it('a probe that succeeds does not clear a failure recorded while it ran', async () => {
    let release!: () => void;
    const { h, clock } = harness(() => new Promise<void>((r) => { release = r; }));
    h.writeFailed(failure('SQLITE_FULL'));
    const check = h.check();
    h.writeFailed(failure('SQLITE_IOERR'));
    release();
    expect(await check).toMatchObject({ code: 'SQLITE_IOERR' });
    clock.now += 2000;
    const again = h.check();
    release();
    expect(await again).toBeUndefined();
  });

  it('logs once when writes start failing and once when they work again', async () => {
    const mem = memoryLog();
    let ok = false;
    const h = new StorageHealth({ log: mem.log, probe: async () => { if (!ok) throw failure('SQLITE_FULL'); }, probeEveryMs: 0 });
    for (let i = 0; i < 5; i++) h.writeFailed(failure('SQLITE_FULL'));
    await h.check();
    ok = true;
    await h.check();
    const lines = mem.entries().filter((l) => /database writes/i.test(l.msg ?? ''));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'database writes are failing (SQLITE_FULL): /api/health answers 503 until a write probe succeeds'],
      [30, 'database writes work again: /api/health answers 200'],
    ]);
  });
});

describe('errorHandler records a storage failure behind a 500', () => {
  it('an error with a storage code that never went through knex (a prepared statement) turns the state on; the answer stays a plain 500', async () => {
    const h = new StorageHealth({ log: silent, probe: async () => undefined });
    const app = new Koa();
    app.use(errorHandler(silent, h));
    app.use(() => { throw failure('SQLITE_IOERR_WRITE'); });
    const server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'Internal server error' });
      expect(h.failure).toMatchObject({ code: 'SQLITE_IOERR_WRITE' });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
