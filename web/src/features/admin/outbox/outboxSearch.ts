import { CASE_PAGE_DEFAULT, outboxQuerySchema, type OutboxPageResponse, type OutboxQuery } from '../../../api/contract';
import { acceptedSearch, compact, pagedSearch } from '../../shared/routeSearch';

export type OutboxStatus = NonNullable<OutboxQuery['status']>;
export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['queued', 'sending', 'sent', 'failed'];

/**
 * Which page of the outbox is on screen, kept in the route's search params (a reload, Back or a
 * shared link shows the same page): the server's query (the contract's schema, the very one the
 * API validates it with) and the page's number. The server pages by keyset cursor, so a page is
 * reached from its neighbour (next_cursor / prev_cursor), never by number; `page` (0 = the
 * first, not written) only feeds TablePagination's "26–50" label and its Previous button.
 */
export type OutboxSearch = OutboxQuery & { page?: number };

/** The outbox route's validateSearch: what the API accepts, a refused field dropped (its default instead). */
export const parseOutboxSearch = (raw: Record<string, unknown>): OutboxSearch =>
  pagedSearch(acceptedSearch(outboxQuerySchema, raw, ['cursor']), raw.page, CASE_PAGE_DEFAULT);

/** The newest mail of a status and page size; the default size is not written in the URL. */
export const firstPage = (status: OutboxStatus | undefined, limit: number | undefined): OutboxSearch =>
  compact({ status, limit: limit === CASE_PAGE_DEFAULT ? undefined : limit });

/**
 * The search after TablePagination asks for page `to`: one step forward or back by the answer's
 * cursors; the first page always without a cursor, so it shows the newest mail (a step back
 * to it by cursor would miss what was queued since).
 */
export function turnPage(search: OutboxSearch, to: number, answer: Pick<OutboxPageResponse, 'next_cursor' | 'prev_cursor'>): OutboxSearch {
  const page = search.page ?? 0;
  if (to <= 0) return firstPage(search.status, search.limit);
  if (to > page && answer.next_cursor) return { ...search, page: page + 1, cursor: answer.next_cursor };
  if (to < page && answer.prev_cursor) return { ...search, page: page - 1, cursor: answer.prev_cursor };
  if (to < page) return firstPage(search.status, search.limit);
  return search;
}

/** The request of a search: only what differs from the server's defaults, so the first page is plain GET /api/outbox. */
export const outboxQueryOf = (s: OutboxSearch): OutboxQuery => compact({ status: s.status, limit: s.limit, cursor: s.cursor });
