import { CASE_PAGE_DEFAULT, caseHistoryQuerySchema, type CaseHistoryQuery } from '../../../api/contract';

/**
 * What a history screen (All Cases tab, phone list, admin Case Management) keeps in its URL:
 * the server's query (the contract's schema, so the URL and the API agree on every field) and
 * the page's number, for display only ("26–50 of 240"): the cursor says where the page is.
 */
export type HistorySearch = CaseHistoryQuery & { page?: number };

/** The cases screen's tabs: the live board (default, not written in the URL) and history. */
export type CasesTab = 'emergency' | 'all';
export type CasesScreenSearch = HistorySearch & { tab?: 'all' };

const QUERY_KEYS = ['q', 'status', 'priority', 'from', 'to', 'order', 'limit', 'cursor'] as const;
const TEXT_KEYS = new Set<string>(['q', 'from', 'to', 'cursor']);
/** A page number past this is not one a reader reached by pressing Next. */
const MAX_PAGE = 100_000;

/** Drops the keys whose value is undefined (so equal searches make equal URLs). */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The router's validateSearch for a history screen. The router reads search values as JSON
 * where they parse (`?q=1234` arrives as the number 1234), so text fields are read back as
 * text. A field the schema refuses is dropped, not the whole search: a hand-edited or old
 * link still opens the screen with what it got right. Without a cursor the page is the first
 * (0); with one but no page number (a hand-made link) it is shown as the second, the least it can be.
 */
export function parseHistorySearch(raw: Record<string, unknown>): HistorySearch {
  const input: Record<string, unknown> = {};
  for (const k of QUERY_KEYS) {
    const v = raw[k];
    if (v == null) continue;
    input[k] = TEXT_KEYS.has(k) && (typeof v === 'number' || typeof v === 'boolean') ? String(v) : v;
  }
  let parsed = caseHistoryQuerySchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) delete input[String(issue.path[0])];
    parsed = caseHistoryQuerySchema.safeParse(input);
  }
  const query: CaseHistoryQuery = parsed.success ? compact(parsed.data) : {};
  if (query.limit === CASE_PAGE_DEFAULT) delete query.limit;
  if (!query.cursor) return query;
  const page = Number(raw.page);
  return { ...query, page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1 };
}

/** The operator's cases screen: the history search and which tab is open. */
export function parseCasesScreenSearch(raw: Record<string, unknown>): CasesScreenSearch {
  const search: CasesScreenSearch = parseHistorySearch(raw);
  if (raw.tab === 'all') search.tab = 'all';
  return search;
}

/** The server's query of a screen's search (no page number, no tab). */
export function historyQueryOf(search: HistorySearch): CaseHistoryQuery {
  return compact(Object.fromEntries(QUERY_KEYS.map((k) => [k, search[k]])) as CaseHistoryQuery);
}

/** A new search text, order, filter or page size: back to the first page. */
export function withQuery<S extends HistorySearch>(search: S, change: Partial<CaseHistoryQuery>): S {
  const next = { ...search, ...change, cursor: undefined, page: undefined };
  if (next.q !== undefined) next.q = next.q.trim() || undefined;
  if (next.limit === CASE_PAGE_DEFAULT) next.limit = undefined;
  return compact(next);
}

/** Another page: the first has no cursor (it shows the newest rows, not the ones once before page 2). */
export function withPage<S extends HistorySearch>(search: S, page: number, cursor: string | null): S {
  return compact({ ...search, page: page > 0 && cursor ? page : undefined, cursor: page > 0 && cursor ? cursor : undefined });
}
