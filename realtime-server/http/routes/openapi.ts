import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openApiDocument } from '../openapi';
import type { Mount } from './types';

/**
 * GET /api/openapi.json: the API document, made from the router on the first request (when
 * every route is mounted) and kept; the same for every caller and holding no secret, so
 * caches may keep it for a while and revalidate by its ETag.
 */
export const mountOpenApi: Mount = (router) => {
  let made: { json: string; etag: string } | undefined;
  router.get('/api/openapi.json', { summary: 'This document (OpenAPI 3.1): every route, its input, its answer and who may call it' }, (ctx) => {
    if (!made) {
      const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
      const json = JSON.stringify(openApiDocument(router, version));
      made = { json, etag: createHash('sha256').update(json).digest('base64url').slice(0, 27) };
    }
    ctx.status = 200;
    ctx.set('Cache-Control', 'public, max-age=300');
    // Weak: the gzip and plain bytes of the document are the same document.
    ctx.etag = `W/"${made.etag}"`;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = made.json;
  });
};
