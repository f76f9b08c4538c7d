import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import serve from 'koa-static';

/** The public phone pages with an HTML of their own (built by vite.config.ts), by path prefix. */
const OWN_PAGES: readonly [prefix: string, file: string][] = [
  ['/location/', 'location.html'],
  ['/track/', 'track.html'],
];

/**
 * The HTML a client route starts from: the patient's /location/{caseId} and the tracking
 * link's /track/{ambulanceId} have their own small pages; every other path, and a build
 * without the page, gets the SPA's index.html.
 */
export function spaHtml(dir: string, urlPath: string): string {
  for (const [prefix, file] of OWN_PAGES) {
    const own = path.join(dir, file);
    if (urlPath.startsWith(prefix) && fs.existsSync(own)) return own;
  }
  return path.join(dir, 'index.html');
}

/**
 * The build's precompressed sibling the client accepts (brotli first, then gzip, as
 * koa-send picks them for the assets), or the file itself.
 */
async function negotiated(ctx: Koa.Context, file: string): Promise<{ file: string; encoding?: 'br' | 'gzip' }> {
  for (const encoding of ['br', 'gzip'] as const) {
    const sibling = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    if (ctx.acceptsEncodings(encoding, 'identity') === encoding && await fs.promises.access(sibling).then(() => true, () => false)) {
      return { file: sibling, encoding };
    }
  }
  return { file };
}

/**
 * Serves the built web app (precompressed .br/.gz siblings when the client accepts them);
 * every other GET falls back to index.html (or a public page's own HTML) for client-side routes.
 */
export function serveSpa(dir: string): Koa.Middleware {
  const files = serve(dir, { index: 'index.html', maxage: 0, brotli: true, gzip: true });
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    // Every file may come in another encoding: caches must key on what the client accepts.
    ctx.vary('Accept-Encoding');
    await files(ctx, async () => {});
    if (ctx.body != null || ctx.status !== 404) {
      if (ctx.path.startsWith('/assets/')) ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      return;
    }
    const index = spaHtml(dir, ctx.path);
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet: run `npm run build` (npm start does it for you).';
      return;
    }
    const chosen = await negotiated(ctx, index);
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    if (chosen.encoding) ctx.set('Content-Encoding', chosen.encoding);
    // A small file, read whole: a stream would log a premature close whenever a tab goes away mid-send.
    ctx.body = await fs.promises.readFile(chosen.file);
  };
}
