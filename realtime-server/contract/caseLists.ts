// The case and outbox lists: the live board (bounded by what is open) and history (paged by a
// keyset cursor, searched by an index). Written with zod/mini so the staff app validates its
// route's search params with the very schema the server validates the query with, at a few KB.
import * as z from 'zod/mini';
import type { CaseDto } from './cases';
import { CASE_STATUSES } from './enums';
import type { OutboxMessageDto } from './tracking';

/** Rows a history page holds by default, and at most. */
export const CASE_PAGE_DEFAULT = 25;
export const CASE_PAGE_MAX = 100;
/** Page sizes the screens offer (TablePagination's choices). */
export const CASE_PAGE_SIZES = [25, 50, 100] as const;
/** Ended calls stay on the board this long after they end (BOARD_RECENT_HOURS). */
export const BOARD_RECENT_HOURS_DEFAULT = 12;
/**
 * At most this many ended calls ride on the board (the latest ended): a busy centre ends 700+
 * calls in 12 hours, and the board's size must follow what is open, not the day's volume. The
 * rest are a history page away.
 */
export const BOARD_ENDED_MAX = 100;
/** Past this many matches a history search stops counting: `total` is then a lower bound ("10,000+"). */
export const HISTORY_COUNT_CAP = 10_000;

export interface CaseCounts {
  /** Open calls with a unit (status active). */
  active: number;
  /** Open calls waiting for a unit (status pending). */
  pending: number;
  /** Every case stored (SPEC's "Total Cases"). */
  total: number;
}

/**
 * Bare GET /api/cases: the live board. Every open call (active, pending) and the calls that
 * ended in the last BOARD_RECENT_HOURS (the latest BOARD_ENDED_MAX of them), in board order: open calls by priority (1 first), the
 * waiting above the running within a priority, oldest call first; then the ended, newest first.
 * Its size depends on what is open, never on history.
 */
export interface CaseBoardResponse {
  cases: CaseDto[];
  counts: CaseCounts;
}

/** GET /api/cases?scope=all…: one page of history. */
export interface CaseHistoryResponse {
  cases: CaseDto[];
  /** The page after this one in the chosen order; null on the last page. */
  next_cursor: string | null;
  /** The page before this one; null on the first page. */
  prev_cursor: string | null;
  /** Matching cases: exact while `total_exact`, else a lower bound (HISTORY_COUNT_CAP, shown "10,000+"). */
  total: number;
  total_exact: boolean;
}

const optionalText = (max: number) => z.optional(z.pipe(z.string().check(z.trim(), z.maxLength(max)), z.transform((v) => v || undefined)));
const pageSize = z.optional(z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^\d{1,3}$/, 'must be a whole number'))]),
  z.transform((v) => Number(v)),
).check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= CASE_PAGE_MAX, `must be a whole number from 1 to ${CASE_PAGE_MAX}`)));
/** A day (2026-11-01, UTC midnight) or an ISO date and time with offset. */
const instant = z.optional(z.string().check(
  z.trim(),
  z.refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v), 'must be an ISO 8601 date (2026-11-01) or date and time with offset'),
  z.refine((v) => !Number.isNaN(Date.parse(v)), 'is not a real date'),
));

/**
 * The history query (GET /api/cases?scope=all&…) and, without `scope`, the search params of
 * every history screen (All Cases tab, phone list, admin Case Management): one schema, so a
 * link or a reload shows the same page. `order` is by creation time, newest first by default;
 * `q` is SPEC's search (case-insensitive over id, description, status, patient name, e-mail
 * and location text: the intake address and the plate). `cursor` is opaque: the server's
 * next_cursor or prev_cursor of the same query.
 */
export const caseHistoryQuerySchema = z.object({
  q: optionalText(200),
  status: z.optional(z.enum(CASE_STATUSES, `must be one of ${CASE_STATUSES.join(', ')}`)),
  priority: z.optional(z.pipe(
    z.union([z.number(), z.string()]),
    z.transform((v) => Number(v)),
  ).check(z.refine((n) => n === 1 || n === 2 || n === 3 || n === 4, 'must be 1, 2, 3 or 4'))),
  from: instant,
  to: instant,
  order: z.optional(z.enum(['asc', 'desc'], 'must be asc or desc')),
  limit: pageSize,
  cursor: z.optional(z.string().check(z.maxLength(400))),
});
export type CaseHistoryQuery = z.output<typeof caseHistoryQuerySchema>;

/** GET /api/outbox?status=&limit=&cursor=: newest first. */
export const outboxQuerySchema = z.object({
  status: z.optional(z.enum(['queued', 'sending', 'sent', 'failed'], 'must be one of queued, sending, sent, failed')),
  limit: pageSize,
  cursor: z.optional(z.string().check(z.maxLength(400))),
});
export type OutboxQuery = z.output<typeof outboxQuerySchema>;

export interface OutboxPageResponse {
  messages: OutboxMessageDto[];
  next_cursor: string | null;
  prev_cursor: string | null;
  total: number;
  total_exact: boolean;
}
