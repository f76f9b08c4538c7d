import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['db/**/*.test.ts', 'realtime-server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'web/e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Migrates one database per run for the test servers to copy (realtime-server/testing/templateDb.ts).
    globalSetup: ['realtime-server/testing/globalSetup.ts'],
    // As many workers as cores, not vitest's default of one less (a single worker on a 2-core
    // machine): most files wait on sockets, child processes and timers rather than compute, so a
    // file per core keeps the cores busy. Not more: the servers, the child processes some files
    // start and PostgreSQL want the cores too, and past them files only slow one another down.
    maxWorkers: os.availableParallelism(),
  },
});
