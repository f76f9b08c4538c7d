import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['db/**/*.test.ts', 'realtime-server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'web/e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: a single worker on a 2-core machine. Most
    // files wait on sockets, child processes and timers rather than compute, so two run side by side.
    maxWorkers: 2,
  },
});
