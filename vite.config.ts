import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { precompress } from './vite.precompress.ts';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const backend = 'http://127.0.0.1:3000';

// The SPA lives in web/; the server serves the build from dist/web on the same port as the API.
export default defineConfig({
  root: fromRoot('./web'),
  plugins: [
    // The router plugin must come before the react plugin.
    tanstackRouter({
      target: 'react',
      routesDirectory: fromRoot('./web/src/routes'),
      generatedRouteTree: fromRoot('./web/src/routeTree.gen.ts'),
      autoCodeSplitting: true,
    }),
    react(),
    precompress(fromRoot('./dist/web')),
  ],
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/live-location': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, changeOrigin: true, ws: true },
    },
  },
});
