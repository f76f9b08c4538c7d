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
 * not answered within SLOW_REQUEST_MS is logged at once, with what it may be waiting for: the database
 * pool (a connection held elsewhere shows as pending acquires) and how late this timer itself fired
 * (a blocked event loop), so that a stalled request says why while it is still stalled.
 */
export const requestLogger = (log: Logger, db?: Knex, slowMs = SLOW_REQUEST_MS) => async (ctx: Context, next: Next) => {
  const started = performance.now();
  let slow = false;
  const watch = setTimeout(() => {
    slow = true;
    const ms = Math.round(performance.now() - started);
    log.warn({ method: ctx.method, path: ctx.path, ms, timerLateMs: ms - slowMs, pool: db && poolState(db) }, 'request still running');
  }, slowMs);
  watch.unref();
  try {
    await next();
  } finally {
    clearTimeout(watch);
    const line = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) };
    if (slow) log.warn(line, 'slow request ended');
    else log.debug(line, 'request');
  }
};
