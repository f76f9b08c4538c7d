import type { Knex } from 'knex';
import { badRequest } from './errors';

/**
 * Keyset paging shared by every history list (cases, outbox): a page is "the `limit` rows after
 * (time, id)" in the list's order, never "skip N rows", so a page costs the same at row 10 as at
 * row 400,000 and rows added meanwhile neither repeat nor vanish. The cursor is opaque to the
 * client: base64url of [list, direction, time, id], checked on the way back in.
 */
export type SortOrder = 'asc' | 'desc';
type Direction = 'next' | 'prev';
type KeyId = string | number;

export interface KeysetPage<Row> {
  rows: Row[];
  next_cursor: string | null;
  prev_cursor: string | null;
}

export interface KeysetOptions<Row> {
  /** Names the list inside the cursor, so one list's cursor is refused by another. */
  list: string;
  /** Qualified columns of the sort key: a time (ISO text) and a unique id breaking ties. */
  timeColumn: string;
  idColumn: string;
  idType: 'string' | 'number';
  order: SortOrder;
  limit: number;
  cursor?: string;
  /** The sort key of a fetched row. */
  keyOf: (row: Row) => [string, KeyId];
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function encodeCursor(list: string, dir: Direction, time: string, id: KeyId): string {
  return Buffer.from(JSON.stringify([list, dir, time, id])).toString('base64url');
}

/** Reads a cursor of `list`; anything else is a 400 naming the field. */
export function decodeCursor(list: string, cursor: string, idType: 'string' | 'number'): { dir: Direction; time: string; id: KeyId } {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor: is not a cursor this list gave out');
  }
  if (!Array.isArray(parts) || parts.length !== 4) throw badRequest('cursor: is not a cursor this list gave out');
  const [l, dir, time, id] = parts as unknown[];
  if (l !== list) throw badRequest('cursor: belongs to another list');
  if (dir !== 'next' && dir !== 'prev') throw badRequest('cursor: is not a cursor this list gave out');
  if (typeof time !== 'string' || !ISO.test(time)) throw badRequest('cursor: is not a cursor this list gave out');
  const idOk = idType === 'number' ? Number.isSafeInteger(id) : typeof id === 'string' && id.length > 0 && id.length <= 64;
  if (!idOk) throw badRequest('cursor: is not a cursor this list gave out');
  return { dir, time, id: id as KeyId };
}

const flip = (o: SortOrder): SortOrder => (o === 'asc' ? 'desc' : 'asc');

/**
 * Runs `query` (already filtered) as one keyset page. Reads limit + 1 rows to learn whether
 * another page follows; a `prev` cursor reads backwards and turns the rows around.
 */
export async function keysetPage<Row>(query: Knex.QueryBuilder, o: KeysetOptions<Row>): Promise<KeysetPage<Row>> {
  const at = o.cursor ? decodeCursor(o.list, o.cursor, o.idType) : null;
  const backwards = at?.dir === 'prev';
  const order = backwards ? flip(o.order) : o.order;
  if (at) query.whereRaw(`(??, ??) ${order === 'desc' ? '<' : '>'} (?, ?)`, [o.timeColumn, o.idColumn, at.time, at.id]);
  const fetched = (await query.orderBy([{ column: o.timeColumn, order }, { column: o.idColumn, order }]).limit(o.limit + 1)) as Row[];
  const more = fetched.length > o.limit;
  const rows = fetched.slice(0, o.limit);
  if (backwards) rows.reverse();
  if (!rows.length) return { rows, next_cursor: null, prev_cursor: null };
  const key = (row: Row, dir: Direction) => encodeCursor(o.list, dir, ...o.keyOf(row));
  const hasNext = backwards ? true : more;
  const hasPrev = backwards ? more : at != null;
  return {
    rows,
    next_cursor: hasNext ? key(rows[rows.length - 1], 'next') : null,
    prev_cursor: hasPrev ? key(rows[0], 'prev') : null,
  };
}
