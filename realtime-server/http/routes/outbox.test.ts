import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASE_PAGE_DEFAULT, HISTORY_COUNT_CAP, type OutboxPageResponse } from '../../contract';
import type { OutboxRow } from '../../../db/repositories/types';
import { encodeCursor } from '../../services/keysetCursor';
import { testEngine } from '../../testing/testEngine';
import { useTestServer } from '../../testing/testServer';
import { requestStatements } from '../../testing/statements';

/**
 * GET /api/outbox: one page of the mail queue, newest first, paged by keyset cursor and
 * filtered by status (issue 24). Runs on the engine of the pass (SQLite, or PostgreSQL with
 * TEST_ENGINE=postgres). Every message is written here with a fixed time: nothing depends
 * on the clock or on demo data.
 */
const s = useTestServer();
let admin: string;
let operator: string;
beforeAll(async () => {
  [admin, operator] = await Promise.all([s.signIn('admin'), s.signIn('operator')]);
});
beforeEach(async () => {
  await s.ctx.db('outbox').delete();
});

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
/** The instant `sec` seconds after T0. */
const at = (sec: number) => new Date(T0 + sec * 1000).toISOString();

/** Stores a message queued at `created`, answers its id. */
async function put(created: string, status: OutboxRow['status'] = 'queued', to = 'p@example.com'): Promise<number> {
  const [row] = await s.ctx.db('outbox').insert({
    kind: 'share-location', to_address: to, subject: `Mail at ${created}`, body_text: 'Hello', links: '[]',
    status, attempts: 0, next_attempt_at: '2999-01-01T00:00:00.000Z', created_at: created,
  }).returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}

async function page(query: string, token = admin) {
  const res = await s.api<OutboxPageResponse>('GET', `/api/outbox${query ? `?${query}` : ''}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const ids = (p: OutboxPageResponse) => p.messages.map((m) => m.id);

describe('GET /api/outbox', () => {
  it('answers newest first by the time queued, the id breaking a tie, with the presenter\'s fields and an exact total', async () => {
    const a = await put(at(1));
    const b = await put(at(3));
    const c = await put(at(2));
    const d = await put(at(2)); // the same instant as c: the larger id comes first
    const p = await page('');
    expect(ids(p)).toEqual([b, d, c, a]);
    expect(p).toMatchObject({ next_cursor: null, prev_cursor: null, total: 4, total_exact: true });
    expect(p.messages[0]).toEqual({
      id: b, kind: 'share-location', to: 'p@example.com', subject: `Mail at ${at(3)}`, text: 'Hello', links: [],
      status: 'queued', attempts: 0, last_error: null, case_id: null, created_at: at(3), sent_at: null,
    });
  });

  it('pages forward and back with no gap and no duplicate while messages are queued in between', async () => {
    const original: number[] = [];
    for (let i = 0; i < 7; i++) original.unshift(await put(at(10 + i)));
    // Forward, 3 a page: a message queued between pages is newer than all, so it is not on a later page.
    const forward: OutboxPageResponse[] = [await page('limit=3')];
    expect(forward[0].prev_cursor).toBeNull();
    const added = [await put(at(100))];
    while (forward[forward.length - 1].next_cursor) {
      forward.push(await page(`limit=3&cursor=${forward[forward.length - 1].next_cursor}`));
      added.unshift(await put(at(100 + forward.length)));
    }
    expect(forward.map(ids)).toEqual([original.slice(0, 3), original.slice(3, 6), original.slice(6)]);
    expect(forward[1].prev_cursor).not.toBeNull();
    expect(forward[2].next_cursor).toBeNull();
    // Back from the last page: every message newer than it, the ones queued meanwhile included, once each, in order.
    const backward: number[][] = [];
    let cursor = forward[2].prev_cursor;
    while (cursor) {
      const p = await page(`limit=3&cursor=${cursor}`);
      backward.unshift(ids(p));
      expect(p.next_cursor).not.toBeNull();
      cursor = p.prev_cursor;
    }
    expect(backward.flat()).toEqual([...added, ...original.slice(0, 6)]);
    expect(backward.every((b) => b.length === 3)).toBe(true);
    expect((await page('limit=3')).total).toBe(7 + added.length);
  });

  it('filters by status: only that status, counted alone, paged within it', async () => {
    const sent = [await put(at(1), 'sent'), await put(at(2), 'sent'), await put(at(3), 'sent')].reverse();
    await put(at(4), 'queued');
    const failed = await put(at(5), 'failed');
    await put(at(6), 'sending');
    const first = await page('status=sent&limit=2');
    expect(first.messages.every((m) => m.status === 'sent')).toBe(true);
    expect(first).toMatchObject({ total: 3, total_exact: true });
    const second = await page(`status=sent&limit=2&cursor=${first.next_cursor}`);
    expect([...ids(first), ...ids(second)]).toEqual(sent);
    expect(second.next_cursor).toBeNull();
    expect(ids(await page('status=failed'))).toEqual([failed]);
    expect((await page('')).total).toBe(6);
    expect(await s.api('GET', '/api/outbox?status=lost', { token: admin })).toMatchObject({ status: 400, body: { error: 'status: must be one of queued, sending, sent, failed' } });
  });

  it(`answers ${CASE_PAGE_DEFAULT} by default and 1 to 100 on request; any other limit is a 400`, async () => {
    await s.ctx.db.batchInsert('outbox', Array.from({ length: 101 }, (_, i) => ({
      kind: 'share-location', to_address: 'p@example.com', subject: 's', body_text: 'b', links: '[]',
      status: 'queued', attempts: 0, next_attempt_at: at(0), created_at: at(i),
    })), 50);
    expect((await page('')).messages).toHaveLength(CASE_PAGE_DEFAULT);
    expect((await page('limit=1')).messages).toHaveLength(1);
    expect((await page('limit=100')).messages).toHaveLength(100);
    for (const bad of ['0', '101', '-1', '2.5', 'ten', '1000']) {
      const res = await s.api('GET', `/api/outbox?limit=${bad}`, { token: admin });
      expect(res, `limit=${bad}`).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^limit: /) } });
    }
  });

  it('refuses a cursor it did not give out, or one of another list, with a 400', async () => {
    await put(at(1));
    for (const cursor of ['nonsense', Buffer.from('["outbox","next","yesterday",1]').toString('base64url'), encodeCursor('outbox', 'next', at(1), 'x1'), encodeCursor('cases', 'next', at(1), 1), 'x'.repeat(401)]) {
      const res = await s.api('GET', `/api/outbox?cursor=${encodeURIComponent(cursor)}`, { token: admin });
      expect(res, cursor).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^cursor: /) } });
    }
  });

  it(`counts at most ${HISTORY_COUNT_CAP}: past that the total is a lower bound`, async () => {
    await s.ctx.db.batchInsert('outbox', Array.from({ length: HISTORY_COUNT_CAP + 1 }, (_, i) => ({
      kind: 'k', to_address: 'p@example.com', subject: 's', body_text: 'b', links: '[]',
      status: i === 0 ? 'failed' : 'sent', attempts: 1, next_attempt_at: at(0), created_at: at(i % 500),
    })), 500);
    expect(await page('limit=1')).toMatchObject({ total: HISTORY_COUNT_CAP, total_exact: false });
    expect(await page('status=failed')).toMatchObject({ total: 1, total_exact: true });
  }, 30_000);

  it.runIf(testEngine() === 'sqlite')('on SQLite reads a page through an index in its order, with or without a status: no sort of the whole outbox', async () => {
    await put(at(1), 'sent');
    let first: any;
    const seen = (await requestStatements(s.ctx.db, async () => {
      first = await page('limit=1');
      await page('status=sent&limit=1');
      await page(`limit=1&cursor=${encodeCursor('outbox', 'next', at(5), 9)}`);
    })).filter((q) => /order by/i.test(q.sql));
    expect(first.messages).toHaveLength(1);
    expect(seen).toHaveLength(3);
    for (const q of seen) {
      const plan = (await s.ctx.db.raw<{ detail: string }[]>(`explain query plan ${q.sql}`, q.bindings)).map((r) => r.detail).join('; ');
      expect(plan, q.sql).toMatch(/USING (COVERING )?INDEX outbox_(status_)?created_at_id/);
      expect(plan, q.sql).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('is for admins only', async () => {
    expect(await s.api('GET', '/api/outbox', { token: operator })).toMatchObject({ status: 403, body: { error: 'Only admins can read the outbox' } });
    expect(await s.api('GET', '/api/outbox')).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
    expect((await s.api('GET', '/api/outbox?status=sent', { token: admin })).status).toBe(200);
  });
});
