import { defineConfig } from 'vite';
import { publicPageConfig } from './vite.public.ts';

// The patient's location page (/location/{caseId} → dist/web/location.html): see vite.public.ts.
export default defineConfig(publicPageConfig('location'));
