import { isUtf8 } from 'node:buffer';
import bourne from '@hapi/bourne';
import coBody from 'co-body';
import type { Context, Next } from 'koa';
import { DomainError, badRequest } from '../../services/errors';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body (jsonBody): `{}` for a POST, PUT or PATCH without one, undefined for other methods. */
    body?: unknown;
  }
}

/** The largest request body any route takes. */
export const MAX_BODY = '1mb';

/** Media types read as JSON; other bodies are not read (the route then sees `{}`). */
const JSON_TYPES = ['application/json', 'application/*+json', 'application/csp-report'];
/** Methods whose body is read. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** The only charset a JSON body may declare (RFC 8259: JSON exchanged between systems is UTF-8). */
const UTF8 = new Set(['', 'utf-8', 'utf8']);
/** Whitespace (RFC 8259) and then an object or an array: no route takes a bare string or number. */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads a JSON request body as bytes (at most 1 MB, gzip and deflate inflated first) into
 * `ctx.request.body`. The bytes must be UTF-8: any other sequence (overlongs, surrogates
 * encoded as UTF-8, truncated or stray bytes) is refused with 400 rather than decoded into
 * U+FFFD and stored, and a body declaring another charset is refused with 415. Then strict
 * JSON: an object or an array, no `__proto__` key. An empty body is `{}`.
 */
export const jsonBody = () => async (ctx: Context, next: Next) => {
  if (!WITH_BODY.has(ctx.method) || !ctx.request.is(JSON_TYPES)) {
    if (WITH_BODY.has(ctx.method)) ctx.request.body = {};
    await next();
    return;
  }
  if (!UTF8.has(ctx.request.charset.toLowerCase())) ctx.throw(415, 'Request body must be JSON in UTF-8 (charset=utf-8)');
  let bytes: Buffer;
  try {
    // co-body reads through raw-body (length and limit checks, inflation); `encoding: false` keeps the bytes undecoded.
    bytes = (await coBody.text(ctx, { limit: MAX_BODY, encoding: false as unknown as string })) as Buffer;
  } catch (err) {
    throw (err as { status?: number }).status === 413 ? new DomainError(413, 'Request body is too large') : badRequest('Request body is not valid JSON');
  }
  if (!isUtf8(bytes)) throw badRequest('Request body is not valid UTF-8');
  const text = (bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes).toString('utf8');
  let body: unknown = {};
  if (text.length > 0) {
    if (!OBJECT_OR_ARRAY.test(text)) throw badRequest('Request body is not valid JSON');
    try {
      body = bourne.parse(text, { protoAction: 'error' });
    } catch {
      throw badRequest('Request body is not valid JSON');
    }
  }
  ctx.request.body = body;
  await next();
};
