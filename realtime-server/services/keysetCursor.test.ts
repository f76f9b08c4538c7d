import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import { decodeCursor, encodeCursor, keysetPage } from './keysetCursor';

interface Row { id: string; at: string }

let db: Knex;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

beforeAll(async () => {
  db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  await db.schema.createTable('items', (t) => {
    t.string('id').primary();
    t.string('at').notNullable();
  });
  // Ten rows, two of them sharing a time so the id must break the tie.
  await db('items').insert(Array.from({ length: 10 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, at: at(i === 5 ? 4 : i) })));
});
afterAll(() => db.destroy());

const page = (order: 'asc' | 'desc', limit: number, cursor?: string) =>
  keysetPage<Row>(db('items').select('*'), {
    list: 'items', timeColumn: 'items.at', idColumn: 'items.id', idType: 'string', order, limit, cursor,
    keyOf: (r) => [r.at, r.id],
  });

async function walk(order: 'asc' | 'desc', limit: number) {
  const seen: string[] = [];
  let p = await page(order, limit);
  seen.push(...p.rows.map((r) => r.id));
  expect(p.prev_cursor).toBeNull();
  while (p.next_cursor) {
    p = await page(order, limit, p.next_cursor);
    seen.push(...p.rows.map((r) => r.id));
  }
  return seen;
}

describe('keysetPage', () => {
  it('walks every row once in either order, ties broken by id', async () => {
    const desc = await walk('desc', 3);
    expect(desc).toHaveLength(10);
    expect(new Set(desc).size).toBe(10);
    expect(desc.slice(0, 2)).toEqual(['r09', 'r08']);
    expect(await walk('asc', 4)).toEqual([...desc].reverse());
  });

  it('goes back with prev_cursor to the very page it came from', async () => {
    const first = await page('desc', 3);
    const second = await page('desc', 3, first.next_cursor!);
    const back = await page('desc', 3, second.prev_cursor!);
    expect(back.rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id));
    expect(back.prev_cursor).toBeNull();
    expect(back.next_cursor).not.toBeNull();
  });

  it('neither repeats nor skips a row when rows are added before the page being read', async () => {
    const first = await page('desc', 5);
    await db('items').insert({ id: 'r99', at: at(30) });
    const second = await page('desc', 5, first.next_cursor!);
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(10);
    expect(ids).not.toContain('r99');
    await db('items').where({ id: 'r99' }).delete();
  });

  it('an empty page has no cursors', async () => {
    const p = await keysetPage<Row>(db('items').select('*').where('id', 'none'), {
      list: 'items', timeColumn: 'items.at', idColumn: 'items.id', idType: 'string', order: 'desc', limit: 5, keyOf: (r) => [r.at, r.id],
    });
    expect(p).toEqual({ rows: [], next_cursor: null, prev_cursor: null });
  });
});

describe('decodeCursor', () => {
  const bad = (cursor: string, list = 'items', idType: 'string' | 'number' = 'string') => {
    try {
      decodeCursor(list, cursor, idType);
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).status).toBe(400);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('round-trips', () => {
    expect(decodeCursor('items', encodeCursor('items', 'prev', at(1), 'x'), 'string')).toEqual({ dir: 'prev', time: at(1), id: 'x' });
    expect(decodeCursor('outbox', encodeCursor('outbox', 'next', at(1), 7), 'number')).toEqual({ dir: 'next', time: at(1), id: 7 });
  });

  it('refuses garbage, another list\'s cursor, a bad time or id, with a 400 naming the cursor', () => {
    expect(bad('not base64 at all!')).toMatch(/^cursor: /);
    expect(bad(Buffer.from('{"a":1}').toString('base64url'))).toMatch(/^cursor: /);
    expect(bad(encodeCursor('outbox', 'next', at(1), 'x'))).toBe('cursor: belongs to another list');
    expect(bad(Buffer.from(JSON.stringify(['items', 'sideways', at(1), 'x'])).toString('base64url'))).toMatch(/^cursor: /);
    expect(bad(Buffer.from(JSON.stringify(['items', 'next', "1' OR 1=1", 'x'])).toString('base64url'))).toMatch(/^cursor: /);
    expect(bad(encodeCursor('items', 'next', at(1), 'x'), 'items', 'number')).toMatch(/^cursor: /);
    expect(bad(encodeCursor('items', 'next', at(1), 1.5), 'items', 'number')).toMatch(/^cursor: /);
  });
});
