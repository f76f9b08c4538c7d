import zlib from 'node:zlib';
import compress from 'koa-compress';
import type { Context, Middleware, Next } from 'koa';

/** Below this an answer goes as it is: the encoding's own overhead would eat the saving. */
export const COMPRESS_THRESHOLD = 1024;

/** Socket.IO's own paths: the engine frames and streams its answers itself. */
const UNTOUCHED_PREFIXES = ['/socket.io'];

const isJson = (type: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);

/**
 * JSON answers above COMPRESS_THRESHOLD go brotli (quality 5: fast enough to do per request)
 * or gzip, as the client asks. Files are not touched here: the build precompresses them and
 * the static layer serves the siblings (realtime-server/http/spa.ts).
 */
export function compressJson(): Middleware {
  const json = compress({
    filter: isJson,
    threshold: COMPRESS_THRESHOLD,
    br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
    gzip: { level: 6 },
    deflate: false,
    zstd: false,
  });
  return async (ctx: Context, next: Next) => {
    if (UNTOUCHED_PREFIXES.some((p) => ctx.path.startsWith(p))) await next();
    else await json(ctx, next);
  };
}
