import type * as z from 'zod/mini';

/** Drops the keys whose value is undefined (so equal searches make equal URLs). */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The fields of a screen's search params that its schema accepts, for a route's validateSearch.
 * The router reads search values as JSON where they parse (`?q=1234` arrives as the number
 * 1234), so `textKeys` are read back as text. A field the schema refuses is dropped, not the
 * whole search: a hand-edited or old link still opens the screen with what it got right and the
 * rest at its default. Every field the schema names is in the answer, undefined when absent or
 * refused: the router lays a route's validated search over its parent's, the raw params at the
 * root (`{ ...parentSearch, ...validated }`), so a field left out would let the URL's refused
 * value through to the screen.
 */
export function acceptedSearch<S extends z.ZodMiniObject>(schema: S, raw: Record<string, unknown>, textKeys: readonly string[] = []): z.output<S> {
  const input: Record<string, unknown> = {};
  for (const k of Object.keys(schema.shape)) {
    const v = raw[k];
    if (v == null) continue;
    input[k] = textKeys.includes(k) && (typeof v === 'number' || typeof v === 'boolean') ? String(v) : v;
  }
  let parsed = schema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) delete input[String(issue.path[0])];
    parsed = schema.safeParse(input);
  }
  const cleared = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, undefined]));
  return { ...cleared, ...(parsed.success ? parsed.data : {}) } as z.output<S>;
}

/** A page number past this is not one a reader reached by pressing Next. */
const MAX_PAGE = 100_000;

/**
 * A list paged by keyset cursor (history, outbox) keeps in its URL the server's query and the
 * page's number, for display only ("26–50 of 240"): the cursor says where the page is. The
 * default page size is left out (undefined, as every field at its default: see acceptedSearch). Without a cursor the page is the first (0, not written); with
 * one but no sane page number (a hand-made link) it is shown as the second, the least it can be.
 */
export function pagedSearch<Q extends { limit?: number; cursor?: string }>(query: Q, rawPage: unknown, defaultLimit: number): Q & { page?: number } {
  const out: Q & { page?: number } = { ...query, page: undefined };
  if (out.limit === defaultLimit) out.limit = undefined;
  if (!out.cursor) return out;
  const page = Number(rawPage);
  return { ...out, page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1 };
}
