import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

// `npm run build`: one `vite build` of dist/web, the folder the server serves on the same port as
// the API. One run, one environment per page, because the pages resolve `react` differently and one
// module graph resolves a module only one way:
//  - client: the staff app (web/index.html → /src/main.tsx), React, MUI, the router;
//  - location, track: the patient's location page and the tracking link's page (location.html,
//    track.html), Preact standing in for React through preact/compat, without the router, MUI or
//    the staff app's code (checked below: the build fails when one slips in). Each page is a graph of
//    its own: as two pages of one graph, what they share went into a common chunk holding the union
//    of what both use from zod and preact, +3 KB brotli on the location page (18.4 KB, not 15.5).
// Then every compressible file gets its .br and .gz siblings (precompress).

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const WEB = fromRoot('./web');
const OUT = fromRoot('./dist/web');
const backend = 'http://127.0.0.1:3000';

const SPA_ENTRY = '/src/main.tsx';
/** The public pages, each answered by realtime-server/http/spa.ts with its HTML: /location/{caseId}, /track/{ambulanceId}. */
const PUBLIC_PAGES = {
  location: '/src/location/main.tsx',
  track: '/src/track/main.tsx',
} as const;
type PublicPage = keyof typeof PUBLIC_PAGES;
const PAGES = Object.keys(PUBLIC_PAGES) as PublicPage[];
const pageHtml = (page: string) => path.join(WEB, `${page}.html`);

/** React's entry points as the public pages import them (their own code, react-query, react-leaflet), and Preact's stand-ins. */
const PREACT_FOR_REACT: Record<string, string> = {
  'react': 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
};
/** What a public page must never bundle: React itself and the staff app's libraries and screens. */
const STAFF_ONLY = /\/node_modules\/(?:react|react-dom|@mui\/[^/]+|@emotion\/[^/]+|@tanstack\/react-router|notistack)\/|\/web\/src\/(?:routes|layout)\//;

/** The plugins for these environments only (config hooks still run once for the whole build). */
function onlyIn(environments: readonly string[], plugins: Plugin | Plugin[]): Plugin[] {
  return [plugins].flat().map((plugin) => ({
    ...plugin,
    applyToEnvironment: (env) => environments.includes(env.name) && (plugin.applyToEnvironment?.(env) ?? true),
  }));
}

/**
 * The public pages' environments: each page's HTML is web/index.html (one shell: the same title, icons,
 * meta and the neutral "Loading…" painted before any script runs, which a patient on a slow phone
 * sees until the page mounts) with the page's script in place of the staff app's, written as the
 * page's own file; React resolves to Preact; and no staff code may end up in the bundle.
 */
function publicPages(): Plugin[] {
  return onlyIn(PAGES, {
    name: 'lifeline-public-pages',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (PAGES.some((page) => source === pageHtml(page))) return source;
      const preact = PREACT_FOR_REACT[source];
      return preact ? this.resolve(preact, importer, { skipSelf: true }) : null;
    },
    load(id) {
      const page = PAGES.find((p) => id === pageHtml(p));
      if (!page) return null;
      const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
      if (!html.includes(`src="${SPA_ENTRY}"`)) throw new Error(`web/index.html no longer loads ${SPA_ENTRY}: update vite.config.ts`);
      return html.replace(`src="${SPA_ENTRY}"`, `src="${PUBLIC_PAGES[page]}"`);
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const staff = chunk.moduleIds.find((id) => STAFF_ONLY.test(id.replaceAll('\\', '/')));
        if (staff) this.error(`${chunk.fileName} of a public page bundles ${path.relative(fromRoot('.'), staff)}: the public pages must stay free of React and the staff app`);
      }
    },
  });
}

const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|webmanifest|txt|xml)$/i;
/** Smaller files gain less than the encoding's overhead and a header. */
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br (brotli, quality 11) and a .gz (gzip -9) beside every compressible file of the
 * build, for the server to send as they are (koa-send's `brotli`/`gzip` siblings): the best
 * compression costs once at build time, never per request.
 */
async function precompress(dir: string) {
  const files = (await fs.promises.readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(files.map(async (file) => {
    const raw = await fs.promises.readFile(file);
    if (raw.length < MIN_BYTES) return;
    const [br, gz] = await Promise.all([
      brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
      gzip(raw, { level: 9 }),
    ]);
    await Promise.all([fs.promises.writeFile(`${file}.br`, br), fs.promises.writeFile(`${file}.gz`, gz)]);
  }));
}

export default defineConfig({
  root: WEB,
  plugins: [
    // The router plugin must come before the react plugin; it generates the staff app's route tree.
    onlyIn(['client'], tanstackRouter({
      target: 'react',
      routesDirectory: fromRoot('./web/src/routes'),
      generatedRouteTree: fromRoot('./web/src/routeTree.gen.ts'),
      autoCodeSplitting: true,
    })),
    react(),
    publicPages(),
  ],
  environments: {
    client: {
      build: { outDir: OUT, emptyOutDir: true },
    },
    ...Object.fromEntries(PAGES.map((page) => [page, {
      consumer: 'client' as const,
      build: {
        outDir: OUT,
        emptyOutDir: false, // built after the staff app, into the same folder
        copyPublicDir: false, // the staff app's build copies web/public
        modulePreload: { polyfill: false }, // the browsers these pages serve preload modules natively
        rollupOptions: {
          input: pageHtml(page),
          // TanStack Query's "use client" markers mean nothing without server components.
          onwarn(warning, warn) {
            if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
          },
          output: { entryFileNames: `assets/${page}-[hash].js`, chunkFileNames: `assets/${page}-[name]-[hash].js`, assetFileNames: `assets/${page}-[name]-[hash][extname]` },
        },
      },
    }])),
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client); // first: it empties dist/web
      for (const page of PAGES) await builder.build(builder.environments[page]);
      await precompress(OUT);
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/live-location': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, changeOrigin: true, ws: true },
    },
  },
});
