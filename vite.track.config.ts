import { defineConfig } from 'vite';
import { publicPageConfig } from './vite.public.ts';

// The tracking link's page (/track/{ambulanceId} → dist/web/track.html): see vite.public.ts.
export default defineConfig(publicPageConfig('track'));
