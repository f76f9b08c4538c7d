import { CASE_PAGE_DEFAULT, caseHistoryQuerySchema, type CaseHistoryQuery } from '../../../api/contract';
import { acceptedSearch, compact, pagedSearch } from '../routeSearch';

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
const TEXT_KEYS = ['q', 'from', 'to', 'cursor'];

/**
 * The router's validateSearch for a history screen: the fields the API's schema accepts (a
 * refused one is dropped, see acceptedSearch) and the page number with its cursor (pagedSearch).
 */
export function parseHistorySearch(raw: Record<string, unknown>): HistorySearch {
  return pagedSearch(acceptedSearch(caseHistoryQuerySchema, raw, TEXT_KEYS), raw.page, CASE_PAGE_DEFAULT);
}

/** The operator's cases screen: the history search and which tab is open. */
export function parseCasesScreenSearch(raw: Record<string, unknown>): CasesScreenSearch {
  return { ...parseHistorySearch(raw), tab: raw.tab === 'all' ? 'all' : undefined };
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
