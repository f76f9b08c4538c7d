import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['db/**/*.test.ts', 'realtime-server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'web/e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker's test files share its loaded modules instead of importing the server anew for each
    // file: importing was most of a file's time (the route tests: 44 s of imports in a 53 s run, 7 s and
    // 26 s shared; the SQLite pass 305 -> 191 s, 28 Nov). Every test server still has its own database,
    // port and context; a test about a module's first state loads a fresh copy (vi.resetModules).
    isolate: false,
    // Migrates one database per run for the test servers to copy (realtime-server/testing/templateDb.ts).
    globalSetup: ['realtime-server/testing/globalSetup.ts'],
    // As many workers as cores, not vitest's default of one less (a single worker on a 2-core
    // machine): most files wait on sockets, child processes and timers rather than compute, so a
    // file per core keeps the cores busy. Not more: the servers, the child processes some files
    // start and PostgreSQL want the cores too, and past them files only slow one another down.
    maxWorkers: os.availableParallelism(),
  },
});
