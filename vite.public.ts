import { fileURLToPath } from 'node:url';
import { type Plugin, type UserConfig } from 'vite';
import { precompress } from './vite.precompress.ts';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const SPA_ENTRY = '/src/main.tsx';

/** The public phone pages with an entry of their own: the HTML file the server answers their paths with, and the script. */
export const PUBLIC_PAGES = {
  location: { html: 'location.html', entry: '/src/location/main.tsx' }, // /location/{caseId}
  track: { html: 'track.html', entry: '/src/track/main.tsx' }, // /track/{ambulanceId}
} as const;
export type PublicPage = keyof typeof PUBLIC_PAGES;

/**
 * The page's HTML is the SPA's web/index.html (one shell: same title, icons, meta and the
 * neutral "Loading…" painted before any script runs, which a patient on a slow phone sees
 * until the page mounts) with the page's script in place of the SPA's, written as the page's own file.
 */
function pageHtml(page: PublicPage): Plugin {
  const { html: fileName, entry } = PUBLIC_PAGES[page];
  return {
    name: `lifeline-${page}-html`,
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(`src="${SPA_ENTRY}"`)) throw new Error(`web/index.html no longer loads ${SPA_ENTRY}: update vite.public.ts`);
        return html.replace(`src="${SPA_ENTRY}"`, `src="${entry}"`);
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const built = bundle['index.html'];
        if (built?.type !== 'asset') throw new Error(`the ${page} build made no index.html`);
        delete bundle['index.html'];
        this.emitFile({ type: 'asset', fileName, source: built.source });
      },
    },
  };
}

/**
 * A public phone page's build (the patient's location page, the tracking link's page), made
 * after the main app (vite.config.ts empties dist/web first) into the same folder. Preact
 * stands in for React through preact/compat, for these entries only: aliases apply to a whole
 * build, hence builds of their own. realtime-server/http/spa.ts answers the page's paths with its HTML.
 */
export function publicPageConfig(page: PublicPage): UserConfig {
  const outDir = fromRoot('./dist/web');
  return {
    root: fromRoot('./web'),
    publicDir: false, // the main build copies web/public
    plugins: [pageHtml(page), precompress(outDir)],
    resolve: {
      alias: [
        { find: /^react$/, replacement: 'preact/compat' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
      ],
    },
    build: {
      outDir,
      emptyOutDir: false,
      modulePreload: { polyfill: false }, // the browsers these pages serve preload modules natively
      rollupOptions: {
        input: fromRoot('./web/index.html'),
        // TanStack Query's "use client" markers mean nothing without server components.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
        output: { entryFileNames: `assets/${page}-[hash].js`, chunkFileNames: `assets/${page}-[name]-[hash].js`, assetFileNames: `assets/${page}-[name]-[hash][extname]` },
      },
    },
  };
}
