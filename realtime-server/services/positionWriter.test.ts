import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dispatchCase, updateCase } from '../testing/dispatchHelpers';
import { useTestServer } from '../testing/testServer';
import type { DomainEvent } from './events';
import { ambulanceService } from './ambulanceService';
import { DomainError } from './errors';
import { PositionWriter, STAFF_OVER_DEVICE, positionWriter } from './positionWriter';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { positionRepository } from '../../db/repositories/positionRepository';
import { type PgConnection, createSetStore } from '../../db/repositories/positionSetStore';
import { testEngine } from '../testing/testEngine';

const s = useTestServer();
beforeAll(async () => {
  // The seeded fleet's positions are older than every fix below.
  await s.ctx.db('ambulances').update({ position_at: new Date(Date.now() - 600_000).toISOString() });
});

// Fix times in the recent past (a fix is stored as taken at its arrival at the latest), after the seeded positions.
const base = Date.now() - 120_000;
const at = (ms: number) => new Date(base + ms).toISOString();
const count = async (ambulanceId: number) => Number((await s.ctx.db('ambulance_positions').where({ ambulance_id: ambulanceId }).count({ n: '*' }).first())?.n);

describe('group commit of positions', () => {
  it('writes positions that arrive together in one transaction, each acked after the commit', async () => {
    const stats = positionWriter(s.ctx).stats;
    const before = { ...stats };
    const acks = await Promise.all([1, 2, 3, 1, 2, 3].map((id, i) =>
      ambulanceService.recordPosition(s.ctx, id, { latitude: 17.3 + i / 100, longitude: 78.4, timestamp: at(1000 + i) }, { type: 'staff' })));
    expect(acks).toEqual(Array(6).fill({ ok: true, latest: true }));
    expect(stats.transactions - before.transactions).toBe(1);
    expect(stats.rows - before.rows).toBe(6);
  });

  it('spaces commits: positions arriving in separate turns soon after a commit share the next one', async () => {
    const w = new PositionWriter(s.ctx, { spacingMs: 300 });
    const send = (i: number) => w.write(8, { latitude: 17.3, longitude: 78.4 + i / 100, timestamp: at(2000 + i) }, { type: 'staff' });
    await send(0);
    expect(w.stats.transactions).toBe(1);
    const acks: Promise<unknown>[] = [];
    for (let i = 1; i <= 3; i++) {
      acks.push(send(i));
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(acks)).toEqual(Array(3).fill({ ok: true, latest: true }));
    expect(w.stats).toMatchObject({ transactions: 2, rows: 4, largest: 3 });
  });

  it('never lets an older fix of the same batch overwrite a newer latest position', async () => {
    const [newer, older] = await Promise.all([
      ambulanceService.recordPosition(s.ctx, 7, { latitude: 17.5, longitude: 78.5, timestamp: at(20_000) }, { type: 'staff' }),
      ambulanceService.recordPosition(s.ctx, 7, { latitude: 17.1, longitude: 78.1, timestamp: at(10_000) }, { type: 'staff' }),
    ]);
    expect([newer, older]).toEqual([{ ok: true, latest: true }, { ok: true, latest: false }]);
    const row = await s.ctx.db('ambulances').where({ id: 7 }).first();
    expect([Number(row.latitude), row.position_at]).toEqual([17.5, at(20_000)]);
    expect(await count(7)).toBe(2); // the older one is kept in the history
  });

  it('fails a refused position alone: the others of its batch are stored and published', async () => {
    const token = await s.signIn('operator');
    const open = await dispatchCase(s, token, 4);
    const closed = await dispatchCase(s, token, 5);
    expect((await updateCase(s, token, closed, { status: 'closed' })).status).toBe(200);
    const heard: DomainEvent[] = [];
    const off = s.ctx.bus.subscribe((e) => { if (e.type === 'ambulance.position') heard.push(e); });
    const before5 = await count(5);
    const results = await Promise.allSettled([
      ambulanceService.recordPosition(s.ctx, 4, { latitude: 17.4, longitude: 78.4 }, { type: 'driver', caseId: open }),
      ambulanceService.recordPosition(s.ctx, 5, { latitude: 17.4, longitude: 78.4 }, { type: 'driver', caseId: closed }),
      ambulanceService.recordPosition(s.ctx, 999_999, { latitude: 17.4, longitude: 78.4 }, { type: 'staff' }),
      ambulanceService.recordPosition(s.ctx, 6, { latitude: 17.4, longitude: 78.4, timestamp: Date.now() + 3_600_000 }, { type: 'staff' }),
      ambulanceService.recordPosition(s.ctx, 6, { latitude: 17.6, longitude: 78.6 }, { type: 'staff' }),
    ]);
    off();
    expect(results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as DomainError).status))).toEqual(['ok', 403, 404, 400, 'ok']);
    expect(results[1].status === 'rejected' && results[1].reason).toBeInstanceOf(DomainError);
    expect(await count(5)).toBe(before5);
    expect(heard.map((e) => e.type === 'ambulance.position' && e.position.ambulanceId)).toEqual([4, 6]);
  });

  it('rolls a batch back on an unexpected failure and writes the others again, each on its own', async () => {
    const stats = positionWriter(s.ctx).stats;
    const before = { ...stats };
    const before8 = await count(8);
    const results = await Promise.allSettled([
      ambulanceService.recordPosition(s.ctx, 8, { latitude: 17.2, longitude: 78.2 }, { type: 'staff' }),
      // NOT NULL violated in the database: no DomainError, the transaction fails.
      ambulanceService.recordPosition(s.ctx, 8, { latitude: null as unknown as number, longitude: 78.3 }, { type: 'staff' }),
      ambulanceService.recordPosition(s.ctx, 8, { latitude: 17.4, longitude: 78.4 }, { type: 'staff' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).not.toBeInstanceOf(DomainError);
    expect(await count(8)).toBe(before8 + 2);
    expect(stats.transactions - before.transactions).toBe(2); // the two good ones, each alone
  });

  it('publishes a position only once it is committed and readable', async () => {
    let seenInDb: unknown;
    const off = s.ctx.bus.subscribe((e) => {
      if (e.type === 'ambulance.position' && e.position.ambulanceId === 2) {
        seenInDb = s.ctx.db('ambulance_positions').where({ ambulance_id: 2, recorded_at: e.position.recorded_at }).first();
      }
    });
    await ambulanceService.recordPosition(s.ctx, 2, { latitude: 17.9, longitude: 78.9, timestamp: at(25_000) }, { type: 'staff' });
    off();
    expect(await seenInDb).toMatchObject({ ambulance_id: 2, recorded_at: at(25_000) });
  });

  it('stores a replayed fix (same ambulance, same fix time) once, and a replay never moves the marker back', async () => {
    const heard: DomainEvent[] = [];
    const off = s.ctx.bus.subscribe((e) => { if (e.type === 'ambulance.position' && e.position.ambulanceId === 3) heard.push(e); });
    const before = await count(3);
    const fix = { latitude: 17.31, longitude: 78.31, timestamp: at(40_000) };
    const device = { type: 'device', protocol: 'osmand' } as const;
    // Twice in one batch, then again alone after a newer fix: one row, and the newer fix stays the latest.
    const acks = await Promise.all([ambulanceService.recordPosition(s.ctx, 3, fix, device), ambulanceService.recordPosition(s.ctx, 3, fix, device)]);
    expect(acks).toEqual([{ ok: true, latest: true }, { ok: true, latest: false }]);
    await ambulanceService.recordPosition(s.ctx, 3, { latitude: 17.32, longitude: 78.32, timestamp: at(41_000) }, device);
    expect(await ambulanceService.recordPosition(s.ctx, 3, fix, device)).toEqual({ ok: true, latest: false });
    off();
    expect(await count(3)).toBe(before + 2);
    const row = await s.ctx.db('ambulances').where({ id: 3 }).first();
    expect([Number(row.latitude), row.position_at]).toEqual([17.32, at(41_000)]);
    expect(heard.map((e) => e.type === 'ambulance.position' && e.position.recorded_at)).toEqual([at(40_000), at(41_000)]);
  });

  it('looks the history up for a replay only when the fix is not newer than the latest: a moving unit\'s next fix costs no look-up', async () => {
    const real = positionRepository.store.bind(positionRepository);
    const lookedUp: string[] = [];
    const spy = vi.spyOn(positionRepository, 'store').mockImplementation(async (trx) => {
      const store = await real(trx);
      return { ...store, hasFix: (id, recordedAt) => { lookedUp.push(recordedAt); return store.hasFix(id, recordedAt); } };
    });
    const device = { type: 'device', protocol: 'osmand' } as const;
    const send = (ms: number) => ambulanceService.recordPosition(s.ctx, 1, { latitude: 17.34, longitude: 78.34, timestamp: at(ms) }, device);
    try {
      const before = await count(1);
      expect(await send(50_000)).toEqual({ ok: true, latest: true });
      expect(await send(51_000)).toEqual({ ok: true, latest: true });
      expect(lookedUp).toEqual([]);
      expect(await send(51_000)).toEqual({ ok: true, latest: false });
      // Older than the latest but never stored: looked up, then kept in the history.
      expect(await send(49_000)).toEqual({ ok: true, latest: false });
      expect(await send(50_000)).toEqual({ ok: true, latest: false });
      expect(lookedUp).toEqual([at(51_000), at(49_000), at(50_000)]);
      expect(await count(1)).toBe(before + 3);
    } finally {
      spy.mockRestore();
    }
  });

  it('finds a replay with both position stores (prepared SQLite statements and Knex)', async () => {
    await ambulanceService.recordPosition(s.ctx, 1, { latitude: 17.33, longitude: 78.33, timestamp: at(42_000) }, { type: 'staff' });
    await s.ctx.db.transaction(async (trx) => {
      const stores = [positionRepository.knexStore(trx), await positionRepository.store(trx)];
      for (const store of stores) {
        expect(await store.hasFix(1, at(42_000))).toBe(true);
        expect(await store.hasFix(1, at(42_001))).toBe(false);
        expect(await store.hasFix(2, at(42_000))).toBe(false);
      }
    });
  });

  it('refuses a staff position after the crew\'s own fix in the same batch, and keeps the crew\'s', async () => {
    const id = await ambulanceRepository.insert(s.ctx.db, { license_plate: 'PW SAME BATCH', status: 'available' });
    const results = await Promise.allSettled([
      ambulanceService.recordPosition(s.ctx, id, { latitude: 17.41, longitude: 78.41 }, { type: 'device', protocol: 'osmand' }),
      ambulanceService.recordPosition(s.ctx, id, { latitude: 17.42, longitude: 78.42 }, { type: 'staff' }),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as DomainError).message))).toEqual(['ok', STAFF_OVER_DEVICE]);
    const row = await s.ctx.db('ambulances').where({ id }).first();
    expect([Number(row.latitude), row.position_source]).toEqual([17.41, 'osmand']);
    expect(await count(id)).toBe(1);
  });

  it.runIf(testEngine() === 'postgres')('PostgreSQL: a batch is checked and stored in the same few statements whatever its size', async () => {
    const id = await ambulanceRepository.insert(s.ctx.db, { license_plate: 'PW SET BATCH', status: 'available' });
    const statements: string[] = [];
    const spy = vi.spyOn(positionRepository, 'store').mockImplementation(async (trx, opts) => {
      const conn = await (trx.client as unknown as { acquireConnection(): Promise<PgConnection> }).acquireConnection();
      return createSetStore({ query: (q) => { statements.push(q.name); return conn.query(q); } }, opts);
    });
    const device = { type: 'device', protocol: 'osmand' } as const;
    let t = 70_000;
    const batchOf = (n: number) => Promise.all(Array.from({ length: n }, () =>
      ambulanceService.recordPosition(s.ctx, id, { latitude: 17.5, longitude: 78.5, timestamp: at(t++) }, device)));
    try {
      expect(await batchOf(1)).toEqual([{ ok: true, latest: true }]);
      const one = [...statements];
      statements.length = 0;
      expect(await batchOf(40)).toEqual(Array(40).fill({ ok: true, latest: true }));
      expect(statements).toEqual(one);
      expect(one).toEqual(['positions_lock_free_read', 'positions_insert', 'positions_set_latest']);
    } finally {
      spy.mockRestore();
    }
    expect(await count(id)).toBe(41);
    expect((await s.ctx.db('ambulances').where({ id }).first()).position_at).toBe(at(70_040));
  });

  it.runIf(testEngine() === 'postgres')('PostgreSQL: a position whose ambulance row another transaction holds waits beside the queue, not in it', async () => {
    const held = await ambulanceRepository.insert(s.ctx.db, { license_plate: 'PW HELD ROW', status: 'available' });
    const free = await ambulanceRepository.insert(s.ctx.db, { license_plate: 'PW FREE ROW', status: 'available' });
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => { locked = r; });
    // A dispatch (or any write of the ambulance) holding its row for as long as it likes.
    const holder = s.ctx.db.transaction(async (trx) => {
      await trx('ambulances').where({ id: held }).forUpdate().select('id');
      locked();
      await released;
    });
    await isLocked;
    const stats = positionWriter(s.ctx).stats;
    const deferredBefore = stats.deferred;
    const device = { type: 'device', protocol: 'osmand' } as const;
    let heldAnswered = false;
    const heldAck = ambulanceService.recordPosition(s.ctx, held, { latitude: 17.6, longitude: 78.6, timestamp: at(80_000) }, device)
      .finally(() => { heldAnswered = true; });
    const freeAck = ambulanceService.recordPosition(s.ctx, free, { latitude: 17.7, longitude: 78.7, timestamp: at(80_000) }, device);
    expect(await freeAck).toEqual({ ok: true, latest: true });
    // The next positions of other ambulances are not held either, and the held one is still waiting for its row.
    expect(await ambulanceService.recordPosition(s.ctx, free, { latitude: 17.71, longitude: 78.71, timestamp: at(81_000) }, device)).toEqual({ ok: true, latest: true });
    expect(stats.deferred - deferredBefore).toBe(1);
    expect(heldAnswered).toBe(false);
    expect(await count(held)).toBe(0);
    release();
    await holder;
    expect(await heldAck).toEqual({ ok: true, latest: true });
    expect(await count(held)).toBe(1);
    expect((await s.ctx.db('ambulances').where({ id: held }).first()).position_at).toBe(at(80_000));
  });
});
