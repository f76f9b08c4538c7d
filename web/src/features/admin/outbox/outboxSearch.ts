import { CASE_PAGE_DEFAULT, type OutboxPageResponse, type OutboxQuery } from '../../../api/contract';

export type OutboxStatus = NonNullable<OutboxQuery['status']>;
export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['queued', 'sending', 'sent', 'failed'];

/**
 * Which page of the outbox is on screen. The server pages by keyset cursor, so a page is
 * reached from its neighbour (next_cursor / prev_cursor), never by number; `page` only feeds
 * TablePagination's "26–50" label and its Previous button.
 */
export interface OutboxView {
  status?: OutboxStatus;
  limit: number;
  page: number;
  cursor?: string;
}

export const firstPage = (status: OutboxStatus | undefined, limit: number): OutboxView => ({ status, limit, page: 0 });

/**
 * The view after TablePagination asks for page `to`: one step forward or back by the answer's
 * cursors; the first page always without a cursor, so it shows the newest mail (a step back
 * to it by cursor would miss what was queued since).
 */
export function turnPage(view: OutboxView, to: number, answer: Pick<OutboxPageResponse, 'next_cursor' | 'prev_cursor'>): OutboxView {
  if (to <= 0) return firstPage(view.status, view.limit);
  if (to > view.page && answer.next_cursor) return { ...view, page: view.page + 1, cursor: answer.next_cursor };
  if (to < view.page && answer.prev_cursor) return { ...view, page: view.page - 1, cursor: answer.prev_cursor };
  if (to < view.page) return firstPage(view.status, view.limit);
  return view;
}

/** The request of a view: only what differs from the server's defaults, so the first page is plain GET /api/outbox. */
export const outboxQueryOf = (v: OutboxView): OutboxQuery => ({
  status: v.status,
  limit: v.limit === CASE_PAGE_DEFAULT ? undefined : v.limit,
  cursor: v.cursor,
});
