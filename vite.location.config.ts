import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const SPA_ENTRY = '/src/main.tsx';
const LOCATION_ENTRY = '/src/location/main.tsx';

/**
 * The page's HTML is the SPA's web/index.html (one shell: same title, icons and meta) with
 * the location entry's script in place of the SPA's, written as location.html.
 */
function locationHtml(): Plugin {
  return {
    name: 'lifeline-location-html',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(`src="${SPA_ENTRY}"`)) throw new Error(`web/index.html no longer loads ${SPA_ENTRY}: update vite.location.config.ts`);
        return html.replace(`src="${SPA_ENTRY}"`, `src="${LOCATION_ENTRY}"`);
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html?.type !== 'asset') throw new Error('the location build made no index.html');
        delete bundle['index.html'];
        this.emitFile({ type: 'asset', fileName: 'location.html', source: html.source });
      },
    },
  };
}

// The public location page (/location/{caseId} → dist/web/location.html), built after the
// main app (vite.config.ts empties dist/web first) into the same folder. Preact stands in for
// React through preact/compat, for this entry only: aliases apply to a whole build, hence a
// build of its own. The server answers /location/… with this HTML (realtime-server/http/app.ts).
export default defineConfig({
  root: fromRoot('./web'),
  publicDir: false, // the main build copies web/public
  plugins: [locationHtml()],
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
    outDir: fromRoot('./dist/web'),
    emptyOutDir: false,
    modulePreload: { polyfill: false }, // one script, nothing to preload
    rollupOptions: {
      input: fromRoot('./web/index.html'),
      output: { entryFileNames: 'assets/location-[hash].js', chunkFileNames: 'assets/location-[name]-[hash].js', assetFileNames: 'assets/location-[hash][extname]' },
    },
  },
});
