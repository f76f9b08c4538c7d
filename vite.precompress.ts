import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|webmanifest|txt|xml)$/i;
/** Smaller files gain less than the encoding's overhead and a header. */
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

const fresh = (sibling: string, source: fs.Stats) => fs.existsSync(sibling) && fs.statSync(sibling).mtimeMs >= source.mtimeMs;

/**
 * Writes a .br (brotli, quality 11) and a .gz (gzip -9) beside every compressible file of the
 * build folder, for the server to send as they are (koa-send's `brotli`/`gzip` siblings):
 * the best compression costs once at build time, never per request. Runs after each build
 * into the folder (the SPA's, then the public pages'), redoing only files without fresh siblings.
 */
export function precompress(outDir: string): Plugin {
  return {
    name: 'lifeline-precompress',
    apply: 'build',
    async closeBundle() {
      if (!fs.existsSync(outDir)) return;
      const jobs: Promise<void>[] = [];
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const stats = fs.statSync(file);
        if (stats.size < MIN_BYTES) continue;
        if (fresh(`${file}.br`, stats) && fresh(`${file}.gz`, stats)) continue;
        jobs.push((async () => {
          const raw = await fs.promises.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gzip(raw, { level: 9 }),
          ]);
          await Promise.all([fs.promises.writeFile(`${file}.br`, br), fs.promises.writeFile(`${file}.gz`, gz)]);
        })());
      }
      await Promise.all(jobs);
    },
  };
}
