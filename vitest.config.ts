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
    // One worker more than cores: most files wait on sockets, child processes and timers rather than
    // compute, and with the modules shared (above) a file no longer spends its time importing. On this
    // 2-core machine the SQLite pass took 191 and 205 s on two workers, 155 and 168 s on three; the
    // PostgreSQL pass 145 against 140 s (PostgreSQL is its limit). Four were not tried.
    maxWorkers: os.availableParallelism() + 1,
  },
});
