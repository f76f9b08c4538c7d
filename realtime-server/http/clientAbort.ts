import type Koa from 'koa';
import type { Logger } from 'pino';

const ABORT_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_DESTROYED']);

/** Why a request's work stopped: its client left before the answer was complete (a tab closed, a query cancelled). */
export class ClientGone extends Error {
  readonly code = 'ECONNABORTED';
  constructor() {
    super('the client went away before its answer was complete');
    this.name = 'ClientGone';
  }
}

/**
 * Aborts (with ClientGone) when the request's connection closes before its answer is complete:
 * long work (a report over a year) stops rather than computing for nobody. An answer sent in full
 * never aborts it.
 */
export function clientGoneSignal(ctx: Koa.Context): AbortSignal {
  const ac = new AbortController();
  const closed = () => {
    if (!ctx.res.writableFinished) ac.abort(new ClientGone());
  };
  if (ctx.req.socket?.destroyed) closed();
  else ctx.res.once('close', closed);
  return ac.signal;
}

/** True for the errors a client causes by going away mid-answer (a tab closed, a page left). */
export function isClientAbort(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && ABORT_CODES.has(e.code)) return true;
  return e.message === 'aborted';
}

/**
 * Replaces Koa's default error printer (raw stack traces on stderr) with the server's JSON
 * log: a client that left mid-answer is one debug line (nothing went wrong on our side),
 * anything else an error line. Route failures never get here: errorHandler answers them.
 */
export function logAppErrors(app: Koa, log: Logger) {
  app.silent = true;
  // Koa reports one abort twice (the response stream's end and the socket's): one line per request.
  const told = new WeakSet<object>();
  app.on('error', (err: unknown, ctx?: Koa.Context) => {
    const where = ctx ? { method: ctx.method, path: ctx.path } : {};
    if (isClientAbort(err)) {
      if (ctx) {
        if (told.has(ctx)) return;
        told.add(ctx);
      }
      log.debug({ ...where, code: (err as { code?: string }).code ?? 'aborted' }, 'client went away mid-answer');
      return;
    }
    const status = (err as { status?: number } | null)?.status;
    if (status === 404 || (err as { expose?: boolean } | null)?.expose) return;
    log.error({ err, ...where }, 'answer failed');
  });
}
