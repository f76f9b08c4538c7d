import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The public location page (web/location.html → dist/web/location.html), built after the main
// app (vite.config.ts empties dist/web first) into the same folder. Preact stands in for React
// through preact/compat, for this entry only: aliases apply to a whole build, hence a build of
// its own. The server answers /location/{caseId} with this HTML (realtime-server/http/app.ts).
export default defineConfig({
  root: fromRoot('./web'),
  publicDir: false, // the main build copies web/public
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
    rollupOptions: { input: fromRoot('./web/location.html') },
  },
});
