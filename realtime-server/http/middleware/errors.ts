import type { Context, Next } from 'koa';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { poolState } from '../../../db/connection';
import { DomainError } from '../../services/errors';
import { ClientGone } from '../clientAbort';
import type { StorageHealth } from '../../services/storageHealth';

const KNOWN = new Set([400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429]);
/** What Koa and its router throw (`ctx.throw`, 405 Method Not Allowed): a status and whether the message may be shown. */
type HttpError = { status?: unknown; expose?: boolean; message?: string } | null | undefined;

/**
 * Turns every failure into `{error}`: domain errors with their status, bugs as a logged 500
 * with no stack. A 500 caused by storage (a full disk, an I/O error) is also recorded for
 * `/api/health`, so that a load balancer stops sending requests that cannot be stored.
 */
export const errorHandler = (log: Logger, storage?: Pick<StorageHealth, 'writeFailed'>) => async (ctx: Context, next: Next) => {
  try {
    await next();
  } catch (err) {
    const http = err as HttpError;
    if (err instanceof DomainError) {
      ctx.status = err.status;
      ctx.body = { error: err.message };
      if (err.retryAfterS !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterS))));
    } else if (err instanceof ClientGone) {
      // Work stopped because its client left (clientGoneSignal): nobody reads this answer, and nothing failed here.
      // 499 is nginx's "client closed request", seen only in the request log.
      ctx.status = 499;
      ctx.body = { error: 'The client went away' };
    } else if (typeof http?.status === 'number' && KNOWN.has(http.status) && http.expose !== false) {
      // Router errors such as 405 Method Not Allowed.
      ctx.status = http.status;
      ctx.body = { error: String(http.message || 'Bad request') };
    } else {
      storage?.writeFailed(err);
      log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Internal server error' };
    }
  }
};

/** A request still unanswered after this long is logged as a warning while it runs, and again when it ends. */
export const SLOW_REQUEST_MS = 10_000;

/**
 * Logs method, path (never the query: it may hold a link token), status and time. A request that has
 * not answered within SLOW_REQUEST_MS is logged while it still runs, with what it may be waiting for:
 * the database pool (a connection held elsewhere shows as pending acquires) and how late the sweep that
 * found it ran (a blocked event loop), so that a stalled request says why while it is still stalled.
 * One sweep a fraction of SLOW_REQUEST_MS apart looks at the requests in flight (a timer per request
 * would cost every position post its own).
 */
export const requestLogger = (log: Logger, db?: Knex, slowMs = SLOW_REQUEST_MS) => {
  const running = new Set<{ ctx: Context; started: number; slow: boolean }>();
  const every = Math.max(10, Math.min(1000, slowMs / 4));
  let sweeper: NodeJS.Timeout | undefined;
  let lastSweep = 0;
  const sweep = () => {
    const now = performance.now();
    const lateMs = Math.max(0, Math.round(now - lastSweep - every));
    lastSweep = now;
    for (const r of running) {
      if (r.slow || now - r.started < slowMs) continue;
      r.slow = true;
      log.warn({ method: r.ctx.method, path: r.ctx.path, ms: Math.round(now - r.started), sweepLateMs: lateMs, pool: db && poolState(db) }, 'request still running');
    }
    if (running.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return async (ctx: Context, next: Next) => {
    const r = { ctx, started: performance.now(), slow: false };
    running.add(r);
    if (!sweeper) {
      lastSweep = r.started;
      sweeper = setInterval(sweep, every);
      sweeper.unref();
    }
    try {
      await next();
    } finally {
      running.delete(r);
      if (r.slow) log.warn({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - r.started) }, 'slow request ended');
      else if (log.isLevelEnabled('debug')) log.debug({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - r.started) }, 'request');
    }
  };
};
